package io.ytstream.benchmarks;

import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * The benchmarks' one parameter, the partition count of the planned queue (16, 1,000 and 10,000),
 * and the inputs built for it once per trial.
 */
@State(Scope.Benchmark)
public class PartitionCount {

  @Param({"16", "1000", "10000"})
  public int partitions;

  PlannerInputs inputs;

  /** The checkpoint's offsets as a plain array, for {@link FloorBenchmark}. */
  long[] floorOffsets;

  @Setup
  public void setUp() {
    inputs = PlannerInputs.of(partitions);
    floorOffsets =
        inputs.checkpoint().asMap().values().stream().mapToLong(Long::longValue).toArray();
  }

  /** For the smoke test, which runs without JMH. */
  static PartitionCount of(int partitions) {
    PartitionCount state = new PartitionCount();
    state.partitions = partitions;
    state.setUp();
    return state;
  }
}
