package io.ytstream.benchmarks;

import io.ytstream.application.offsets.OffsetsJson;
import io.ytstream.core.model.StreamOffsets;
import io.ytstream.core.plan.BatchPlan;
import io.ytstream.core.plan.BatchPlanner;
import io.ytstream.core.plan.StartOffsetResolver;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.Blackhole;

/**
 * The core's whole share of one micro-batch on the driver, the figure the "under 1 ms per batch"
 * target is about: resolve the start offsets, plan with the output-tablet cap, write {@code
 * offsets/N}, and compute the consumer moves the commit applies. No I/O: the ports' calls are the
 * adapters' cost, measured with them.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Fork(1)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
public class DriverBatchBenchmark {

  @Benchmark
  public void batch(PartitionCount state, Blackhole blackhole) {
    PlannerInputs in = state.inputs;
    StreamOffsets start =
        StartOffsetResolver.resolve(Optional.of(in.checkpoint()), in.consumer(), in.bounds());
    BatchPlan plan = BatchPlanner.plan(start, in.bounds(), in.limits());
    blackhole.consume(OffsetsJson.write(plan.end()));
    blackhole.consume(plan.commitRanges());
  }
}
