package io.ytstream.benchmarks;

import io.ytstream.core.model.StreamOffsets;
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

/** {@link StartOffsetResolver#resolve} with a checkpoint that knows every partition. */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Fork(1)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
public class StartOffsetResolverBenchmark {

  @Benchmark
  public StreamOffsets resolve(PartitionCount state) {
    PlannerInputs in = state.inputs;
    return StartOffsetResolver.resolve(Optional.of(in.checkpoint()), in.consumer(), in.bounds());
  }
}
