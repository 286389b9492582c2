package io.ytstream.benchmarks;

import io.ytstream.core.plan.BatchPlan;
import io.ytstream.core.plan.BatchPlanner;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Warmup;

/** {@link BatchPlanner#plan}: one batch from the checkpoint. */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Fork(1)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
public class BatchPlannerBenchmark {

  @Benchmark
  public BatchPlan plan(PartitionCount state) {
    PlannerInputs in = state.inputs;
    return BatchPlanner.plan(in.checkpoint(), in.bounds(), in.limits());
  }
}
