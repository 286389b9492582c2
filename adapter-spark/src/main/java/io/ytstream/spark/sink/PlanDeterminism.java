package io.ytstream.spark.sink;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;
import java.util.UUID;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.catalyst.expressions.Expression;
import org.apache.spark.sql.catalyst.plans.logical.LogicalPlan;
import scala.jdk.javaapi.CollectionConverters;
import scala.runtime.BoxedUnit;

/**
 * Finds the non-deterministic expressions ({@code rand()}, {@code uuid()}, {@code
 * monotonically_increasing_id()}, non-deterministic UDFs) in a streaming query's analyzed plan.
 *
 * <p>The sink's {@code LogicalWriteInfo} carries the query id and the schema, not the plan, and the
 * stream runs in a cloned session whose {@code spark.streams()} does not list the query. Spark
 * registers a query in the shared state before building its sink, so the plan is read from there:
 * {@code sharedState().activeStreamingQueries().get(id).analyzedPlan()}, internal classes whose
 * package moved between Spark 4.1 and 4.2, hence by reflection. When that fails the plan cannot be
 * checked, and the caller says so. {@code current_timestamp()} is not reported: Spark replaces it
 * by the batch's timestamp from {@code offsets/N}, the same when a batch runs again.
 */
final class PlanDeterminism {

  private PlanDeterminism() {}

  /**
   * The innermost non-deterministic expressions of the query's plan, by name, sorted; empty when
   * the plan cannot be read.
   */
  static Optional<List<String>> nondeterministic(SparkSession spark, String queryId) {
    LogicalPlan plan;
    try {
      Object shared = spark.getClass().getMethod("sharedState").invoke(spark);
      Object running = shared.getClass().getMethod("activeStreamingQueries").invoke(shared);
      if (!(running instanceof Map<?, ?> queries)) {
        return Optional.empty();
      }
      Object engine = queries.get(UUID.fromString(queryId));
      if (engine == null) {
        return Optional.empty();
      }
      Object analyzed = engine.getClass().getMethod("analyzedPlan").invoke(engine);
      if (!(analyzed instanceof LogicalPlan p)) {
        return Optional.empty();
      }
      plan = p;
    } catch (ReflectiveOperationException | RuntimeException | LinkageError e) {
      return Optional.empty();
    }
    return Optional.of(nondeterministic(plan));
  }

  static List<String> nondeterministic(LogicalPlan plan) {
    TreeSet<String> found = new TreeSet<>();
    plan.foreach(
        node -> {
          for (Expression e : CollectionConverters.asJava(node.expressions())) {
            e.foreach(
                sub -> {
                  if (!sub.deterministic()
                      && CollectionConverters.asJava(sub.children()).stream()
                          .allMatch(Expression::deterministic)) {
                    found.add(sub.prettyName() + "()");
                  }
                  return BoxedUnit.UNIT;
                });
          }
          return BoxedUnit.UNIT;
        });
    return List.copyOf(found);
  }
}
