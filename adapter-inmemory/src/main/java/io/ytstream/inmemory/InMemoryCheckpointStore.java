package io.ytstream.inmemory;

import io.ytstream.core.model.YPath;
import io.ytstream.ports.CheckpointStore;
import io.ytstream.ports.NodeStatus;
import java.util.List;
import java.util.Optional;

/**
 * Checkpoint files in the Cypress-like tree, with the semantics Spark's checkpoint manager relies
 * on: create-if-absent (501), rename that refuses an existing target (501, {@code move} without
 * {@code force}), 500 for missing nodes, sorted listings. Modification times come from the cluster
 * clock.
 */
final class InMemoryCheckpointStore implements CheckpointStore {

  private final ClusterState cluster;

  InMemoryCheckpointStore(ClusterState cluster) {
    this.cluster = cluster;
  }

  @Override
  public void createDirectories(YPath directory) {
    synchronized (cluster) {
      cluster
          .faults()
          .run(ClusterOperation.CHECKPOINT_MKDIRS, () -> cluster.tree().createMapNodes(directory));
    }
  }

  @Override
  public void writeFile(YPath file, byte[] content, boolean overwrite) {
    byte[] copy = content.clone();
    synchronized (cluster) {
      cluster
          .faults()
          .run(
              ClusterOperation.CHECKPOINT_WRITE,
              () -> {
                CypressTree tree = cluster.tree();
                MapNode parent = tree.parentOf(file);
                CypressNode existing = parent.children().get(CypressTree.lastSegment(file));
                if (existing == null) {
                  tree.add(file, new FileNode(copy, cluster.nowMillis()), false);
                } else if (overwrite && existing instanceof FileNode existingFile) {
                  existingFile.overwrite(copy, cluster.nowMillis());
                } else {
                  // Existing and no overwrite, or a directory/table in the way.
                  throw ClusterErrors.alreadyExists(file);
                }
              });
    }
  }

  @Override
  public byte[] readFile(YPath file) {
    synchronized (cluster) {
      return cluster.faults().call(ClusterOperation.CHECKPOINT_READ, () -> fileAt(file).content());
    }
  }

  @Override
  public void rename(YPath source, YPath target) {
    synchronized (cluster) {
      cluster
          .faults()
          .run(
              ClusterOperation.CHECKPOINT_RENAME,
              () -> {
                CypressTree tree = cluster.tree();
                CypressNode node = tree.resolve(source);
                MapNode targetParent = tree.parentOf(target);
                if (targetParent.children().containsKey(CypressTree.lastSegment(target))) {
                  throw ClusterErrors.alreadyExists(target);
                }
                // The prefix test first: splitting both paths for every rename was a visible cost.
                if (target.value().startsWith(source.value())
                    && CypressTree.isSameOrAncestor(source, target)) {
                  throw ClusterErrors.generic(
                      "Cannot move " + source.value() + " into its own subtree " + target.value());
                }
                tree.remove(source);
                tree.add(target, node, false);
              });
    }
  }

  @Override
  public List<String> list(YPath directory) {
    synchronized (cluster) {
      return cluster
          .faults()
          .call(
              ClusterOperation.CHECKPOINT_LIST,
              () -> {
                CypressNode node = cluster.tree().resolve(directory);
                if (!(node instanceof MapNode map)) {
                  throw ClusterErrors.generic(
                      "Cannot list " + directory.value() + ": it is a " + node.typeName());
                }
                return List.copyOf(map.children().keySet());
              });
    }
  }

  @Override
  public boolean delete(YPath node, boolean recursive) {
    synchronized (cluster) {
      return cluster
          .faults()
          .call(
              ClusterOperation.CHECKPOINT_DELETE,
              () -> {
                Optional<CypressNode> found = cluster.tree().find(node);
                if (found.isEmpty()) {
                  return false;
                }
                if (!recursive && found.get() instanceof MapNode map && !map.children().isEmpty()) {
                  throw ClusterErrors.generic(
                      "Cannot remove non-empty composite node "
                          + node.value()
                          + " without recursive=true");
                }
                cluster.tree().remove(node);
                return true;
              });
    }
  }

  @Override
  public Optional<NodeStatus> status(YPath node) {
    synchronized (cluster) {
      return cluster
          .faults()
          .call(
              ClusterOperation.CHECKPOINT_STATUS,
              () ->
                  cluster
                      .tree()
                      .find(node)
                      .map(
                          found ->
                              new NodeStatus(
                                  node,
                                  found instanceof MapNode,
                                  found instanceof FileNode file ? file.length() : 0,
                                  found.modificationTimeMillis())));
    }
  }

  private FileNode fileAt(YPath path) {
    CypressNode node = cluster.tree().resolve(path);
    if (!(node instanceof FileNode file)) {
      throw ClusterErrors.generic(
          "Cannot read " + path.value() + " as a file: it is a " + node.typeName());
    }
    return file;
  }
}
