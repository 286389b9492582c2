package io.ytstream.application;

import io.ytstream.ports.CheckpointFiles;
import java.util.List;
import java.util.Optional;

/** A checkpoint with no file in it, for sources whose tests read none: a source needs one. */
final class NoCheckpointFiles implements CheckpointFiles {

  @Override
  public Optional<byte[]> read(String path) {
    return Optional.empty();
  }

  @Override
  public List<String> list(String directory) {
    return List.of();
  }

  @Override
  public boolean createIfAbsent(String path, byte[] content) {
    return true;
  }

  @Override
  public String location() {
    return "memory:///ckpt";
  }
}
