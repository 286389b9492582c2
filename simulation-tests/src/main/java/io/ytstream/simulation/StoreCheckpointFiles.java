package io.ytstream.simulation;

import io.ytstream.core.error.YtErrorCode;
import io.ytstream.core.error.YtException;
import io.ytstream.core.model.YPath;
import io.ytstream.ports.CheckpointFiles;
import io.ytstream.ports.CheckpointStore;
import java.util.List;
import java.util.Optional;

/**
 * The query's checkpoint files in the cluster's Cypress tree, as the {@code yt://} file system
 * keeps them for Spark: a new file is written under a temporary name and moved into place, and the
 * move fails when the file exists, so an earlier writer's file stands.
 */
final class StoreCheckpointFiles implements CheckpointFiles {

  private final CheckpointStore store;
  private final YPath root;
  private final String writer;
  private int tmpSeq;

  /**
   * @param writer names this writer's temporary files, so two drivers never share one
   */
  StoreCheckpointFiles(CheckpointStore store, YPath root, String writer) {
    this.store = store;
    this.root = root;
    this.writer = writer;
  }

  @Override
  public Optional<byte[]> read(String path) {
    YPath file = resolve(path);
    if (store.status(file).isEmpty()) {
      return Optional.empty();
    }
    return Optional.of(store.readFile(file));
  }

  @Override
  public List<String> list(String directory) {
    YPath dir = resolve(directory);
    return store.status(dir).isEmpty() ? List.of() : store.list(dir);
  }

  @Override
  public boolean createIfAbsent(String path, byte[] content) {
    int slash = path.lastIndexOf('/');
    String name = path.substring(slash + 1);
    YPath parent = slash < 0 ? root : resolve(path.substring(0, slash));
    YPath file = parent.child(name);
    store.createDirectories(parent);
    if (store.status(file).isPresent()) {
      return false;
    }
    YPath tmp = parent.child("." + name + "." + writer + "-" + tmpSeq++ + ".tmp");
    store.writeFile(tmp, content, false);
    try {
      store.rename(tmp, file);
      return true;
    } catch (YtException e) {
      if (e.hasCode(YtErrorCode.ALREADY_EXISTS)) {
        store.delete(tmp, false);
        return false;
      }
      throw e;
    }
  }

  @Override
  public String location() {
    return "yt://" + root.value().substring(1);
  }

  private YPath resolve(String path) {
    YPath p = root;
    for (String part : path.split("/")) {
      if (!part.isEmpty()) {
        p = p.child(part);
      }
    }
    return p;
  }
}
