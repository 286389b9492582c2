package io.ytstream.benchmarks;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ytstream.application.offsets.OffsetsJson;
import io.ytstream.core.plan.BatchPlan;
import io.ytstream.core.plan.BatchPlanner;
import java.io.IOException;
import java.io.InputStream;
import java.lang.reflect.Method;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.infra.Blackhole;

/**
 * Runs every benchmark method once, outside JMH, so that a broken benchmark fails the build; and
 * checks that the inputs make the benchmarks measure what they claim (a backlog to plan, a cap that
 * binds, a JSON that round-trips).
 */
class BenchmarkSmokeTest {

  private static final List<Class<?>> BENCHMARKS =
      List.of(
          BatchPlannerBenchmark.class,
          StartOffsetResolverBenchmark.class,
          OffsetsJsonBenchmark.class,
          DriverBatchBenchmark.class,
          FloorBenchmark.class);

  @ParameterizedTest
  @ValueSource(ints = {16, 1000})
  void everyBenchmarkMethodRunsOnce(int partitions) throws Exception {
    PartitionCount state = PartitionCount.of(partitions);
    Blackhole blackhole =
        new Blackhole(
            "Today's password is swordfish. I understand instantiating Blackholes directly is"
                + " dangerous.");
    int methods = 0;
    for (Class<?> type : BENCHMARKS) {
      Object instance = type.getConstructor().newInstance();
      for (Method method : type.getDeclaredMethods()) {
        if (!method.isAnnotationPresent(Benchmark.class)) {
          continue;
        }
        Class<?>[] parameters = method.getParameterTypes();
        Object[] arguments = new Object[parameters.length];
        for (int i = 0; i < parameters.length; i++) {
          arguments[i] = parameters[i] == Blackhole.class ? blackhole : state;
        }
        Object result = method.invoke(instance, arguments);
        if (method.getReturnType() != void.class) {
          assertNotNull(result, method.toString());
        }
        methods++;
      }
    }
    assertEquals(6, methods, "benchmark methods found");
    blackhole.evaporate("Yes, I am Stephen Hawking, and know a thing or two about black holes.");
  }

  @Test
  void jmhGeneratedAHarnessForEveryBenchmarkClass() throws IOException {
    String list;
    try (InputStream in = getClass().getResourceAsStream("/META-INF/BenchmarkList")) {
      assertNotNull(in, "META-INF/BenchmarkList: is the JMH annotation processor running?");
      list = new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
    Set<String> listed = new TreeSet<>();
    for (Class<?> type : BENCHMARKS) {
      if (list.contains(type.getName())) {
        listed.add(type.getName());
      }
    }
    assertEquals(BENCHMARKS.size(), listed.size(), list);
  }

  @Test
  void inputsPlanABacklogThatMaxRowsPerPartitionCuts() {
    PlannerInputs in = PlannerInputs.of(1000);
    BatchPlan plan = BatchPlanner.plan(in.checkpoint(), in.bounds(), in.limits());
    assertTrue(plan.ranges().size() > 800, "most partitions have rows");
    assertTrue(
        plan.ranges().stream().anyMatch(r -> r.rowCount() == 100_000),
        "max_rows_per_partition cuts some ranges");
  }

  @Test
  void checkpointJsonRoundTrips() {
    PlannerInputs in = PlannerInputs.of(16);
    assertEquals(in.checkpoint(), OffsetsJson.parse(in.checkpointJson()));
  }

  @Test
  void fitIsExactOnALine() {
    RunAll.Fit fit =
        RunAll.Fit.of(
            List.of(new double[] {16, 2.6}, new double[] {1000, 101}, new double[] {10000, 1001}));
    assertEquals(0.1, fit.slope(), 1e-9);
    assertEquals(1.0, fit.intercept(), 1e-6);
    assertEquals(1.0, fit.r2(), 1e-12);
  }

  @Test
  void tableNamesBenchmarksShortAndJudgesTheTarget() {
    RunAll.Table table = new RunAll.Table();
    table.add("BatchPlanner.plan", 16, new RunAll.Table.Score(2, 0.1, 1.5));
    table.add("BatchPlanner.plan", 1000, new RunAll.Table.Score(100, 1, 90));
    table.add("BatchPlanner.plan", 10000, new RunAll.Table.Score(1500, 10, 900));
    String text = table.render(1);
    assertTrue(text.contains("FAIL (1500 µs)"), text);
    assertTrue(text.contains("PASS (900 µs)"), text);
    assertEquals(
        "OffsetsJson.parse", RunAll.shortName("io.ytstream.benchmarks.OffsetsJsonBenchmark.parse"));
  }
}
