package io.ytstream.ytsaurus;

import io.ytstream.core.model.YPath;

/** Small helpers to name tables in queries and queues on other clusters. */
final class Paths {

  private Paths() {}

  /** {@code [//path]} for a query; a path with brackets or quotes is refused. */
  static String inQuery(YPath path) {
    String value = path.value();
    if (value.contains("]") || value.contains("[") || value.contains("\"")) {
      throw new IllegalArgumentException(
          "path " + value + " contains brackets or quotes, which this adapter does not escape");
    }
    return "[" + value + "]";
  }

  /** A string literal of the query language: double quotes, backslash escapes. */
  static String literal(String text) {
    return "\"" + text.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
  }

  /** A queue path, as a rich YPath naming its cluster when that is not the local one. */
  static String queuePath(String localCluster, String queueCluster, YPath path) {
    return queueCluster.equals(localCluster)
        ? path.value()
        : "<cluster=" + literal(queueCluster) + ">" + path.value();
  }
}
