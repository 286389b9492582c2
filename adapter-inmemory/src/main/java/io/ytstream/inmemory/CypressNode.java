package io.ytstream.inmemory;

/** A node of the Cypress-like tree: a map node (directory), a file or a dynamic table. */
abstract class CypressNode {

  private long modificationTimeMillis;

  CypressNode(long modificationTimeMillis) {
    this.modificationTimeMillis = modificationTimeMillis;
  }

  /** The YTsaurus {@code @type}: {@code map_node}, {@code file} or {@code table}. */
  abstract String typeName();

  long modificationTimeMillis() {
    return modificationTimeMillis;
  }

  void touch(long nowMillis) {
    modificationTimeMillis = Math.max(modificationTimeMillis, nowMillis);
  }
}
