package io.ytstream.benchmarks;

import java.lang.management.ManagementFactory;
import java.util.Collection;
import java.util.List;
import org.openjdk.jmh.infra.BenchmarkParams;
import org.openjdk.jmh.infra.IterationParams;
import org.openjdk.jmh.profile.InternalProfiler;
import org.openjdk.jmh.results.AggregationPolicy;
import org.openjdk.jmh.results.IterationResult;
import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.results.ScalarResult;

/**
 * Adds a {@code cpu} result: CPU time of the benchmark's JVM per operation (µs/op), over each
 * iteration. JMH's own score is wall time, which on a shared machine also counts the time the
 * benchmark thread waited for a core; CPU time does not, so runs on a loaded machine stay
 * comparable. It includes the JVM's GC and JIT threads (after warm-up: mostly GC, a real cost of
 * allocating code). Use with {@code -prof io.ytstream.benchmarks.CpuTimeProfiler}; RunAll adds it.
 */
public final class CpuTimeProfiler implements InternalProfiler {

  /** The secondary result's label. */
  public static final String LABEL = "cpu";

  private final com.sun.management.OperatingSystemMXBean os =
      (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();

  private long before;

  @Override
  public String getDescription() {
    return "process CPU time per operation (µs/op), immune to waiting for a core";
  }

  @Override
  public void beforeIteration(BenchmarkParams benchmarkParams, IterationParams iterationParams) {
    before = os.getProcessCpuTime();
  }

  @Override
  public Collection<? extends Result> afterIteration(
      BenchmarkParams benchmarkParams, IterationParams iterationParams, IterationResult result) {
    long cpuNanos = os.getProcessCpuTime() - before;
    long ops = result.getMetadata().getAllOps();
    double micros = ops == 0 ? Double.NaN : cpuNanos / 1e3 / ops;
    return List.of(new ScalarResult(LABEL, micros, "us/op", AggregationPolicy.AVG));
  }
}
