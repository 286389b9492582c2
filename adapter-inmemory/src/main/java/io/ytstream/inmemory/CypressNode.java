package io.ytstream.inmemory;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** A node of the Cypress-like tree: a map node (directory), a file, a dynamic or static table. */
abstract class CypressNode {

  private long modificationTimeMillis;

  /** The node's own {@code acl} attribute; {@link AccessControl} reads it. */
  private List<AccessControlEntry> acl = List.of();

  /** {@code inherit_acl}: whether the ancestors' entries apply to this node too. */
  private boolean inheritAcl = true;

  /** Attributes set with {@code set}, by name; values as JSON has them. */
  private final Map<String, Object> userAttributes = new TreeMap<>();

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

  List<AccessControlEntry> acl() {
    return acl;
  }

  void setAcl(List<AccessControlEntry> entries) {
    acl = List.copyOf(entries);
  }

  Map<String, Object> userAttributes() {
    return userAttributes;
  }

  boolean inheritAcl() {
    return inheritAcl;
  }

  void setInheritAcl(boolean inherit) {
    inheritAcl = inherit;
  }
}
