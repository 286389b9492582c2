package io.ytstream.benchmarks;

import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The machine's floor, not ytstream code: append {@code "index":offset,} for every partition from
 * plain arrays into a presized StringBuilder, the least any writer of the offsets JSON must do.
 * Dividing a benchmark's score by this one's gives a figure that travels between machines (and
 * between quiet and loaded hours of a shared one); {@code OffsetsJson.write} should sit near 1×.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Fork(1)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
public class FloorBenchmark {

  @Benchmark
  public String appendOffsetsText(PartitionCount state) {
    long[] offsets = state.floorOffsets;
    StringBuilder out = new StringBuilder(32 + offsets.length * 20);
    for (int i = 0; i < offsets.length; i++) {
      out.append('"').append(i).append("\":").append(offsets[i]).append(',');
    }
    return out.toString();
  }
}
