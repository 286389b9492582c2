package io.ytstream.inmemory;

import java.util.NavigableMap;
import java.util.TreeMap;

/** A directory: children by name, in name order (so listings are sorted and deterministic). */
final class MapNode extends CypressNode {

  private final NavigableMap<String, CypressNode> children = new TreeMap<>();

  MapNode(long nowMillis) {
    super(nowMillis);
  }

  @Override
  String typeName() {
    return "map_node";
  }

  NavigableMap<String, CypressNode> children() {
    return children;
  }
}
