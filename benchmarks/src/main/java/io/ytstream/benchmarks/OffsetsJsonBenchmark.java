package io.ytstream.benchmarks;

import io.ytstream.application.offsets.OffsetsJson;
import io.ytstream.core.model.StreamOffsets;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Warmup;

/** The offset log's versioned JSON ({@code offsets/N}): written every batch, read on restart. */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Fork(1)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
public class OffsetsJsonBenchmark {

  @Benchmark
  public String write(PartitionCount state) {
    return OffsetsJson.write(state.inputs.checkpoint());
  }

  @Benchmark
  public StreamOffsets parse(PartitionCount state) {
    return OffsetsJson.parse(state.inputs.checkpointJson());
  }
}
