package io.ytstream.inmemory;

import io.ytstream.core.model.YPath;
import io.ytstream.ports.TimeSource;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The Cypress-like namespace: a tree of map nodes whose leaves are files and tables. Missing nodes
 * fail with 500 ("Error resolving path ..."), existing targets with 501. Not thread-safe on its
 * own; the cluster calls it under its lock.
 */
final class CypressTree {

  private final TimeSource clock;
  private final MapNode root;

  /**
   * Tables and map nodes already resolved, by path: every port call resolves its table or
   * directory, and walking the tree each time dominated the cost of a call. Nodes are never
   * replaced in place, so an entry stays right until its path or an ancestor is removed ({@link
   * #remove} drops it). Files are left out: checkpoint files are many and short-lived.
   */
  private final Map<YPath, CypressNode> resolved = new HashMap<>();

  private final Map<String, YPath> parentPaths = new HashMap<>();

  /** The last two paths {@link #cachedParentPath} answered for (by identity), and their parents. */
  private YPath lastChild;

  private YPath lastParent;
  private YPath previousChild;
  private YPath previousParent;

  CypressTree(TimeSource clock) {
    this.clock = clock;
    this.root = new MapNode(clock.nowMillis());
  }

  /** The node at {@code path}, or 500. */
  CypressNode resolve(YPath path) {
    CypressNode cached = resolved.get(path);
    if (cached != null) {
      return cached;
    }
    MapNode cachedParent = cachedParentOf(path);
    CypressNode known =
        cachedParent == null ? null : cachedParent.children().get(lastSegment(path));
    if (known != null) {
      if (known instanceof TableNode || known instanceof MapNode) {
        resolved.put(path, known);
      }
      return known;
    }
    List<String> segments = segments(path);
    CypressNode node = root;
    for (int i = 0; i < segments.size(); i++) {
      if (!(node instanceof MapNode map)) {
        throw ClusterErrors.resolveError(
            path,
            "node "
                + resolvedPrefix(segments, i)
                + " is a "
                + node.typeName()
                + " and has no children");
      }
      CypressNode child = map.children().get(segments.get(i));
      if (child == null) {
        throw ClusterErrors.resolveError(
            path,
            "node "
                + resolvedPrefix(segments, i)
                + " has no child with key \""
                + segments.get(i)
                + "\"");
      }
      node = child;
    }
    if (node instanceof TableNode || node instanceof MapNode) {
      resolved.put(path, node);
    }
    return node;
  }

  /** The path of the first {@code count} segments, as error messages show it. */
  private static String resolvedPrefix(List<String> segments, int count) {
    return "/" + String.join("/", segments.subList(0, count));
  }

  Optional<CypressNode> find(YPath path) {
    MapNode cachedParent = cachedParentOf(path);
    if (cachedParent != null) {
      return Optional.ofNullable(cachedParent.children().get(lastSegment(path)));
    }
    CypressNode node = root;
    for (String segment : segments(path)) {
      if (!(node instanceof MapNode map) || !map.children().containsKey(segment)) {
        return Optional.empty();
      }
      node = map.children().get(segment);
    }
    return Optional.of(node);
  }

  /**
   * The directory holding {@code path} when it is cached (checkpoint files live in a few
   * directories), else null: the caller then walks the tree, which also words any error.
   */
  private MapNode cachedParentOf(YPath path) {
    String value = path.value();
    int slash = value.lastIndexOf('/');
    if (slash <= 1 || value.charAt(slash - 1) == '/') {
      return null; // a child of the root, or an empty segment: leave both to the walk
    }
    return resolved.get(cachedParentPath(path)) instanceof MapNode parent ? parent : null;
  }

  /** The map node that holds (or would hold) {@code path}; 500 when it is missing. */
  MapNode parentOf(YPath path) {
    YPath parent = cachedParentPath(path);
    CypressNode node = resolve(parent);
    if (!(node instanceof MapNode map)) {
      throw ClusterErrors.resolveError(
          path, "node " + parent.value() + " is a " + node.typeName() + ", not a map_node");
    }
    return map;
  }

  /** Creates map nodes along {@code path}; existing map nodes are kept, anything else is 501. */
  MapNode createMapNodes(YPath path) {
    MapNode node = root;
    YPath current = YPath.of("//");
    for (String segment : segments(path)) {
      current = current.child(segment);
      CypressNode child = node.children().get(segment);
      if (child == null) {
        MapNode created = new MapNode(clock.nowMillis());
        node.children().put(segment, created);
        node.touch(clock.nowMillis());
        child = created;
      }
      if (!(child instanceof MapNode map)) {
        throw ClusterErrors.alreadyExists(current);
      }
      node = map;
    }
    return node;
  }

  /** Adds a new node; 501 when {@code path} exists, 500 when the parent is missing. */
  void add(YPath path, CypressNode node, boolean createParents) {
    checkNotRoot(path);
    MapNode parent = createParents ? createMapNodes(parentPath(path)) : parentOf(path);
    String name = lastSegment(path);
    if (parent.children().containsKey(name)) {
      throw ClusterErrors.alreadyExists(path);
    }
    parent.children().put(name, node);
    parent.touch(clock.nowMillis());
  }

  /** Removes an existing node (its subtree goes with it). */
  void remove(YPath path) {
    checkNotRoot(path);
    MapNode parent = parentOf(path);
    CypressNode node = parent.children().remove(lastSegment(path));
    if (node == null) {
      throw ClusterErrors.resolveError(path, "node does not exist");
    }
    if (!(node instanceof FileNode)) {
      // A file is never cached and has no subtree: only directories and tables leave the cache.
      String removed = path.value();
      resolved
          .keySet()
          .removeIf(
              p ->
                  p.value().startsWith(removed)
                      && (p.value().length() == removed.length()
                          || p.value().charAt(removed.length()) == '/'));
    }
    parent.touch(clock.nowMillis());
  }

  /** True when {@code ancestor} is {@code path} or one of its ancestors. */
  static boolean isSameOrAncestor(YPath ancestor, YPath path) {
    List<String> a = segments(ancestor);
    List<String> p = segments(path);
    return a.size() <= p.size() && p.subList(0, a.size()).equals(a);
  }

  static YPath parentPath(YPath path) {
    checkNotRoot(path);
    String value = path.value();
    int slash = value.lastIndexOf('/');
    return YPath.of(slash <= 1 ? "//" : value.substring(0, slash));
  }

  /**
   * {@link #parentPath}, remembered: parents are the few directories, and building a YPath checks
   * its text every time.
   */
  @SuppressWarnings("ReferenceEquality") // an identity cache: same object, same parent
  private YPath cachedParentPath(YPath path) {
    // One call (a rename, a write) asks for the parents of the same one or two paths a few times.
    if (path == lastChild) {
      return lastParent;
    }
    if (path == previousChild) {
      return previousParent;
    }
    checkNotRoot(path);
    String value = path.value();
    int slash = value.lastIndexOf('/');
    String parent = slash <= 1 ? "//" : value.substring(0, slash);
    YPath cached = parentPaths.get(parent);
    if (cached == null) {
      cached = YPath.of(parent);
      parentPaths.put(parent, cached);
    }
    previousChild = lastChild;
    previousParent = lastParent;
    lastChild = path;
    lastParent = cached;
    return cached;
  }

  /**
   * The last segment, checked like {@link #segments} checks each one. Callers have already resolved
   * the parent, which checked the segments before it, so splitting the whole path is not needed.
   */
  static String lastSegment(YPath path) {
    String value = path.value();
    if (value.length() == 2) {
      List<String> none = segments(path);
      return none.get(none.size() - 1); // the root has no segment: fails as before
    }
    String segment = value.substring(Math.max(2, value.lastIndexOf('/') + 1));
    checkSegment(value, segment);
    return segment;
  }

  private static void checkNotRoot(YPath path) {
    if (path.value().equals("//")) {
      throw new IllegalArgumentException("the root node // cannot be created, moved or removed");
    }
  }

  static List<String> segments(YPath path) {
    // A hand-rolled split: String.split was a visible share of every port call.
    String value = path.value();
    List<String> segments = new ArrayList<>();
    if (value.length() == 2) {
      return segments;
    }
    int start = 2;
    while (true) {
      int slash = value.indexOf('/', start);
      String segment = value.substring(start, slash < 0 ? value.length() : slash);
      checkSegment(value, segment);
      segments.add(segment);
      if (slash < 0) {
        return segments;
      }
      start = slash + 1;
    }
  }

  private static void checkSegment(String path, String segment) {
    if (segment.isEmpty()) {
      throw new IllegalArgumentException("YPath " + path + " has an empty segment");
    }
    if (segment.startsWith("@") || segment.startsWith("&")) {
      throw new IllegalArgumentException(
          "YPath " + path + ": attributes and links are not nodes of the in-memory tree");
    }
  }
}
