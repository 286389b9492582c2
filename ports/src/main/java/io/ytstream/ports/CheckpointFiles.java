package io.ytstream.ports;

import java.util.List;
import java.util.Optional;

/**
 * The files of one streaming query's checkpoint (Spark's {@code checkpointLocation}), by path
 * relative to its root: {@code offsets/3}, {@code commits/3}, {@code sources/0/ytstream-source-v1}.
 * Spark writes its logs there; ytstream reads them and writes its own source record. Spark's driver
 * uses a Hadoop file system; the simulation uses a {@link CheckpointStore}.
 */
public interface CheckpointFiles {

  /** The whole file, or empty when it does not exist. */
  Optional<byte[]> read(String path);

  /** The names of a directory's children, sorted; empty when the directory does not exist. */
  List<String> list(String directory);

  /**
   * Writes {@code path} whole unless it exists, creating missing parent directories; never leaves a
   * partial file behind. Returns true when this call wrote it, false when it was there already (an
   * earlier writer's file stands).
   */
  boolean createIfAbsent(String path, byte[] content);

  /** Where the checkpoint is, for messages (its URI or path). */
  String location();
}
