package io.ytstream.simulation;

import io.ytstream.ports.CheckpointFiles;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.TreeMap;

/** A checkpoint held in memory, for the tests that drive a use case without a run's store. */
final class MemoryCheckpointFiles implements CheckpointFiles {
  private final TreeMap<String, byte[]> files;
  private final String location;

  MemoryCheckpointFiles(TreeMap<String, byte[]> files, String location) {
    this.files = files;
    this.location = location;
  }

  @Override
  public Optional<byte[]> read(String path) {
    return Optional.ofNullable(files.get(path)).map(byte[]::clone);
  }

  @Override
  public List<String> list(String directory) {
    String prefix = directory + "/";
    TreeMap<String, Boolean> names = new TreeMap<>();
    for (String path : files.keySet()) {
      if (path.startsWith(prefix)) {
        String rest = path.substring(prefix.length());
        int slash = rest.indexOf('/');
        names.put(slash < 0 ? rest : rest.substring(0, slash), true);
      }
    }
    return new ArrayList<>(names.keySet());
  }

  @Override
  public boolean createIfAbsent(String path, byte[] content) {
    return files.putIfAbsent(path, content.clone()) == null;
  }

  @Override
  public String location() {
    return location;
  }
}
