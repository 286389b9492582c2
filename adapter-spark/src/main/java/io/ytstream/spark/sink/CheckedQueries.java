package io.ytstream.spark.sink;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The streaming queries whose plans the sink has checked in this JVM, so that a warning about a
 * plan comes once per query, not once per batch. Static because Spark builds a new {@code Write}
 * for every micro-batch and hands the sink no object that lives as long as the query. Bounded: it
 * forgets everything when full, and a query then warns once more.
 */
final class CheckedQueries {

  private static final int MAX = 1024;
  private static final Set<String> CHECKED = ConcurrentHashMap.newKeySet();

  private CheckedQueries() {}

  /** True the first time {@code queryId} is seen (and again after the set was full). */
  static boolean firstTime(String queryId) {
    if (CHECKED.size() >= MAX) {
      CHECKED.clear();
    }
    return CHECKED.add(queryId);
  }
}
