package io.ytstream.benchmarks.latency;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.spark.scheduler.SparkListener;
import org.apache.spark.scheduler.SparkListenerStageSubmitted;
import org.apache.spark.scheduler.SparkListenerTaskEnd;
import org.apache.spark.scheduler.SparkListenerTaskStart;
import org.apache.spark.scheduler.TaskInfo;

/**
 * When each streaming query's tasks ran, from Spark's task events: a real-time batch is one stage,
 * so between the last task end of one stage and the first task launch of the next no task of the
 * query runs. That span is Spark's and the source's driver-side work at the boundary (offsets,
 * commit, planning, scheduling); what a boundary gap holds beyond it is the new tasks' start, their
 * first read and the writer. Launch and finish times are the driver's wall clock in milliseconds.
 *
 * <p>Launches are taken when tasks start: the stage after a boundary is still running when a window
 * is measured (at {@code RealTime(60 s)} it holds the window's only boundary).
 */
final class BoundaryTasks extends SparkListener {

  /** Spark's local property naming the streaming query a job runs for. */
  static final String QUERY_ID_PROPERTY = "sql.streaming.queryId";

  /** A stage of a query; {@code lastFinishMs} is {@link Long#MIN_VALUE} until a task ended. */
  private record Stage(String query, long firstLaunchMs, long lastFinishMs) {

    Stage merge(Stage other) {
      return new Stage(
          query,
          Math.min(firstLaunchMs, other.firstLaunchMs),
          Math.max(lastFinishMs, other.lastFinishMs));
    }
  }

  private final Map<Integer, String> queryOfStage = new ConcurrentHashMap<>();
  private final Map<Integer, Stage> stages = new TreeMap<>();

  @Override
  public void onStageSubmitted(SparkListenerStageSubmitted event) {
    Properties p = event.properties();
    String query = p == null ? null : p.getProperty(QUERY_ID_PROPERTY);
    if (query != null) {
      stageSubmitted(event.stageInfo().stageId(), query);
    }
  }

  @Override
  public void onTaskStart(SparkListenerTaskStart event) {
    TaskInfo t = event.taskInfo();
    if (t != null) {
      taskStarted(event.stageId(), t.launchTime());
    }
  }

  @Override
  public void onTaskEnd(SparkListenerTaskEnd event) {
    TaskInfo t = event.taskInfo();
    if (t != null) {
      taskEnded(event.stageId(), t.launchTime(), t.finishTime());
    }
  }

  void stageSubmitted(int stageId, String query) {
    queryOfStage.put(stageId, query);
  }

  void taskStarted(int stageId, long launchMs) {
    record(stageId, launchMs, Long.MIN_VALUE);
  }

  void taskEnded(int stageId, long launchMs, long finishMs) {
    record(stageId, launchMs, finishMs);
  }

  private void record(int stageId, long launchMs, long finishMs) {
    String query = queryOfStage.get(stageId);
    if (query == null) {
      return;
    }
    synchronized (this) {
      stages.merge(stageId, new Stage(query, launchMs, finishMs), Stage::merge);
    }
  }

  /**
   * For each stage of {@code query} that ended in {@code [fromMicros, toMicros)} and has a next
   * stage: milliseconds from its last task's end to the next stage's first task launch, sorted.
   */
  synchronized double[] taskFreeMs(UUID query, long fromMicros, long toMicros) {
    List<Stage> ofQuery = new ArrayList<>();
    for (Stage s : stages.values()) {
      if (s.query().equals(query.toString())) {
        ofQuery.add(s);
      }
    }
    ofQuery.sort((a, b) -> Long.compare(a.firstLaunchMs(), b.firstLaunchMs()));
    List<Double> out = new ArrayList<>();
    for (int i = 0; i + 1 < ofQuery.size(); i++) {
      if (ofQuery.get(i).lastFinishMs() == Long.MIN_VALUE) {
        continue;
      }
      long end = ofQuery.get(i).lastFinishMs() * 1000;
      if (end >= fromMicros && end < toMicros) {
        out.add((double) (ofQuery.get(i + 1).firstLaunchMs() - ofQuery.get(i).lastFinishMs()));
      }
    }
    return out.stream().mapToDouble(Double::doubleValue).sorted().toArray();
  }
}
