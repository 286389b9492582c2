package io.ytstream.spark.metrics;

import java.util.Map;
import java.util.Objects;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.spark.scheduler.SparkListener;
import org.apache.spark.scheduler.SparkListenerEvent;
import org.apache.spark.sql.streaming.StreamingQueryListener;

/**
 * The names of the running streaming queries, by id, from the query events Spark posts on its
 * listener bus (every session's queries reach a {@link SparkListener}, which a session's {@code
 * StreamingQueryListener} would not). A source knows only its query's id (a local property of the
 * stream execution thread); the gauges carry the name, as Spark's own {@code spark.streaming.<name
 * or id>} metrics do.
 *
 * <p>The bus delivers the start event asynchronously, so a source may publish before its query's
 * name is known: its gauges are named by id until then, and renamed when the event arrives.
 */
final class QueryNames extends SparkListener {

  private record Run(UUID runId, String name) {}

  private final Map<String, Run> runs = new ConcurrentHashMap<>();
  private final Runnable changed;

  QueryNames(Runnable changed) {
    this.changed = Objects.requireNonNull(changed, "changed");
  }

  /** The query's name, else its id. */
  String label(String queryId) {
    Run run = runs.get(queryId);
    return run == null || run.name() == null || run.name().isEmpty() ? queryId : run.name();
  }

  @Override
  public void onOtherEvent(SparkListenerEvent event) {
    if (event instanceof StreamingQueryListener.QueryStartedEvent started) {
      runs.put(started.id().toString(), new Run(started.runId(), started.name()));
      changed.run();
    } else if (event instanceof StreamingQueryListener.QueryTerminatedEvent terminated) {
      // Only the run that ended: a restart of the query (same id) may have started since.
      Run run = runs.get(terminated.id().toString());
      if (run != null && run.runId().equals(terminated.runId())) {
        runs.remove(terminated.id().toString(), run);
        changed.run();
      }
    }
  }
}
