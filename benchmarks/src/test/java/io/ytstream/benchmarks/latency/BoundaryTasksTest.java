package io.ytstream.benchmarks.latency;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import java.util.UUID;
import org.junit.jupiter.api.Test;

class BoundaryTasksTest {

  private static final UUID QUERY = UUID.fromString("00000000-0000-0000-0000-000000000001");
  private static final UUID OTHER = UUID.fromString("00000000-0000-0000-0000-000000000002");

  /** Stage {@code id} of {@code query} with two tasks, launched and ended at the given ms. */
  private static void stage(BoundaryTasks t, int id, UUID query, long launch, long end) {
    t.stageSubmitted(id, query.toString());
    t.taskStarted(id, launch);
    t.taskStarted(id, launch + 1);
    t.taskEnded(id, launch, end - 2);
    t.taskEnded(id, launch + 1, end);
  }

  @Test
  void eachBoundaryIsTheLastTaskEndToTheNextStagesFirstLaunch() {
    BoundaryTasks t = new BoundaryTasks();
    stage(t, 1, QUERY, 0, 5_000);
    stage(t, 2, OTHER, 5_001, 5_010);
    stage(t, 3, QUERY, 5_030, 10_000);
    stage(t, 4, QUERY, 10_012, 15_000);

    assertArrayEquals(
        new double[] {12, 30}, t.taskFreeMs(QUERY, 4_000_000, 11_000_000), "both, sorted");
    assertArrayEquals(new double[] {12}, t.taskFreeMs(QUERY, 6_000_000, 11_000_000));
  }

  @Test
  void aBoundaryCountsWhileTheNextStageIsStillRunning() {
    BoundaryTasks t = new BoundaryTasks();
    stage(t, 1, QUERY, 0, 60_000);
    t.stageSubmitted(2, QUERY.toString());
    t.taskStarted(2, 60_025);
    t.taskStarted(2, 60_026);

    assertArrayEquals(new double[] {25}, t.taskFreeMs(QUERY, 1_000_000, 62_000_000));
  }

  @Test
  void aStageWithNoTaskEndedYetEndsNoBoundary() {
    BoundaryTasks t = new BoundaryTasks();
    t.stageSubmitted(1, QUERY.toString());
    t.taskStarted(1, 0);
    t.stageSubmitted(2, QUERY.toString());
    t.taskStarted(2, 10);

    assertArrayEquals(new double[0], t.taskFreeMs(QUERY, 0, 1_000_000));
  }
}
