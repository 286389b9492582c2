package io.ytstream.ports;

import io.ytstream.core.model.YPath;
import java.util.List;
import java.util.Optional;

/**
 * A Cypress-like tree of directories (map nodes) and files, for Spark checkpoints. Paths are
 * absolute YPaths ({@code yt:///ckpt/offsets/0} is {@code //ckpt/offsets/0}).
 *
 * <p>Missing nodes fail with code 500; an existing target fails with code 501.
 */
public interface CheckpointStore {

  /** Creates a directory and its missing parents; an existing directory is fine. */
  void createDirectories(YPath directory);

  /**
   * Writes a whole file. With {@code overwrite=false} the file must not exist (create-if-absent,
   * 501 otherwise). The parent directory must exist (500 otherwise).
   */
  void writeFile(YPath file, byte[] content, boolean overwrite);

  byte[] readFile(YPath file);

  /**
   * Moves {@code source} to {@code target}; fails with 501 when {@code target} exists (YTsaurus
   * {@code move} without {@code force}), so two writers can never both publish one log entry.
   */
  void rename(YPath source, YPath target);

  /** Child names of a directory, sorted. */
  List<String> list(YPath directory);

  /** Removes a node (and its children when {@code recursive}); false when it did not exist. */
  boolean delete(YPath node, boolean recursive);

  Optional<NodeStatus> status(YPath node);
}
