package io.ytstream.core.model;

/** Validation of cluster names (the value of {@code //sys/@cluster_name}). */
final class ClusterNames {

  private ClusterNames() {}

  static void validate(String cluster) {
    if (cluster == null || cluster.isEmpty()) {
      throw new IllegalArgumentException("cluster name must not be empty");
    }
    for (int i = 0; i < cluster.length(); i++) {
      char c = cluster.charAt(i);
      if (c == ':' || c == '/' || ((c <= ' ' || c >= 0x80) && Character.isWhitespace(c))) {
        throw new IllegalArgumentException(
            "cluster name '" + cluster + "' must not contain ':', '/' or white space");
      }
    }
  }
}
