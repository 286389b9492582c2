package io.ytstream.application.checkpoint;

import io.ytstream.ports.CheckpointFiles;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.TreeMap;

/** A checkpoint held in memory, which a test may copy and damage file by file. */
public class MapCheckpointFiles implements CheckpointFiles {
  private final TreeMap<String, byte[]> files;
  private final String location;

  public MapCheckpointFiles(TreeMap<String, byte[]> files, String location) {
    this.files = files;
    this.location = location;
  }

  public static MapCheckpointFiles copyOf(CheckpointFiles from, String location) {
    TreeMap<String, byte[]> files = new TreeMap<>();
    for (String name : from.list("offsets")) {
      from.read("offsets/" + name).ifPresent(b -> files.put("offsets/" + name, b));
    }
    for (String name : from.list("sources")) {
      String path = "sources/" + name + "/" + SourceRecord.FILE;
      from.read(path).ifPresent(b -> files.put(path, b));
    }
    return new MapCheckpointFiles(files, location);
  }

  public MapCheckpointFiles with(String path, String text) {
    TreeMap<String, byte[]> copy = new TreeMap<>(files);
    copy.put(path, text.getBytes(StandardCharsets.UTF_8));
    return new MapCheckpointFiles(copy, location);
  }

  public List<Long> batches() {
    List<Long> out = new ArrayList<>();
    for (String name : list("offsets")) {
      if (!name.isEmpty() && name.chars().allMatch(Character::isDigit)) {
        out.add(Long.parseLong(name));
      }
    }
    out.sort(null);
    return out;
  }

  public String text(String path) {
    return textIfPresent(path).orElseThrow();
  }

  public Optional<String> textIfPresent(String path) {
    return read(path).map(b -> new String(b, StandardCharsets.UTF_8));
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
