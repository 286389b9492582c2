package io.ytstream.spark.checkpoint;

import io.ytstream.ports.CheckpointFiles;
import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.UUID;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileAlreadyExistsException;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.LocalFileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RawLocalFileSystem;

/**
 * A query's checkpoint files on the Hadoop file system Spark writes them to ({@code yt://}, {@code
 * file:}, HDFS, object stores). A new file is written under a temporary name and renamed, so a
 * reader never sees half of it.
 */
public final class HadoopCheckpointFiles implements CheckpointFiles {

  private final Path root;
  private final Configuration conf;

  public HadoopCheckpointFiles(Path root, Configuration conf) {
    this.root = Objects.requireNonNull(root, "root");
    this.conf = Objects.requireNonNull(conf, "conf");
  }

  /**
   * The checkpoint a source's metadata folder ({@code <checkpoint>/sources/<i>}, what Spark gives a
   * source) belongs to.
   */
  public static HadoopCheckpointFiles ofSourceFolder(Path sourceFolder, Configuration conf) {
    Path sources = sourceFolder.getParent();
    if (sources == null || sources.getParent() == null || !sources.getName().equals("sources")) {
      throw new IllegalArgumentException(
          "a streaming source's metadata folder is <checkpointLocation>/sources/<i>, got "
              + sourceFolder);
    }
    return new HadoopCheckpointFiles(sources.getParent(), conf);
  }

  /** The index Spark gave the source whose metadata folder is {@code sourceFolder}. */
  public static int sourceIndex(Path sourceFolder) {
    try {
      return Integer.parseInt(sourceFolder.getName());
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(
          "a streaming source's metadata folder is <checkpointLocation>/sources/<i>, got "
              + sourceFolder,
          e);
    }
  }

  @Override
  public Optional<byte[]> read(String path) {
    Path file = new Path(root, path);
    try {
      FileSystem fs = file.getFileSystem(conf);
      try (InputStream in = fs.open(file)) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        in.transferTo(bytes);
        return Optional.of(bytes.toByteArray());
      }
    } catch (FileNotFoundException e) {
      return Optional.empty();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + file + ": " + e.getMessage(), e);
    }
  }

  @Override
  public List<String> list(String directory) {
    Path dir = new Path(root, directory);
    List<String> names = new ArrayList<>();
    try {
      FileSystem fs = dir.getFileSystem(conf);
      if (!fs.exists(dir)) {
        return names;
      }
      for (FileStatus f : fs.listStatus(dir)) {
        names.add(f.getPath().getName());
      }
    } catch (FileNotFoundException e) {
      return names;
    } catch (IOException e) {
      throw new UncheckedIOException("cannot list " + dir + ": " + e.getMessage(), e);
    }
    names.sort(null);
    return names;
  }

  @Override
  public boolean createIfAbsent(String path, byte[] content) {
    Path file = new Path(root, path);
    try {
      FileSystem fs = file.getFileSystem(conf);
      File local = localFile(fs, file);
      if (local != null) {
        return createLocally(local.toPath(), content);
      }
      fs.mkdirs(file.getParent());
      // A local file system's rename replaces an existing file: look first, so an earlier
      // writer's file stands (yt:// and HDFS refuse the rename themselves).
      if (fs.exists(file)) {
        return false;
      }
      Path tmp = new Path(file.getParent(), temporaryName(file.getName()));
      try (OutputStream out = fs.create(tmp, false)) {
        out.write(content);
      }
      boolean renamed;
      try {
        renamed = fs.rename(tmp, file);
      } catch (FileAlreadyExistsException e) {
        renamed = false;
      }
      if (!renamed) {
        fs.delete(tmp, false);
      }
      return renamed;
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write " + file + ": " + e.getMessage(), e);
    }
  }

  /**
   * The file behind {@code file} on Hadoop's local file system, or null on any other. Without
   * Hadoop's native library (a job built with Maven has none) that file system runs {@code chmod}
   * in a child process for every directory and file it creates: 20-30 ms for one small file, on the
   * first batch of every query with a local checkpoint.
   */
  private static File localFile(FileSystem fs, Path file) {
    if (fs instanceof LocalFileSystem local) {
      return local.pathToFile(file);
    }
    if (fs instanceof RawLocalFileSystem raw) {
      return raw.pathToFile(file);
    }
    return null;
  }

  /** As on any file system: written under a temporary name, renamed unless the file exists. */
  private static boolean createLocally(java.nio.file.Path file, byte[] content) throws IOException {
    Files.createDirectories(file.getParent());
    if (Files.exists(file)) {
      return false;
    }
    java.nio.file.Path tmp = file.resolveSibling(temporaryName(file.getFileName().toString()));
    Files.write(tmp, content, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
    try {
      // Without REPLACE_EXISTING the move refuses an existing file.
      Files.move(tmp, file);
      return true;
    } catch (java.nio.file.FileAlreadyExistsException e) {
      Files.deleteIfExists(tmp);
      return false;
    }
  }

  private static String temporaryName(String name) {
    return "." + name + "." + UUID.randomUUID() + ".tmp";
  }

  @Override
  public String location() {
    return root.toString();
  }
}
