package io.ytstream.benchmarks.spark;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentSkipListMap;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FileAlreadyExistsException;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.PathFilter;
import org.apache.hadoop.fs.PositionedReadable;
import org.apache.hadoop.fs.Seekable;
import org.apache.spark.sql.execution.streaming.checkpointing.CheckpointFileManager;

/**
 * Spark's micro-batch floor for the batch-overhead benchmark: a checkpoint manager that keeps every
 * file in a map of this JVM and does no I/O at all. Selected with {@code
 * spark.sql.streaming.checkpointFileManagerClass}; Spark constructs it with {@code (Path,
 * Configuration)}. Directories exist implicitly; listing a directory finds the files directly in
 * it.
 */
public final class NoIoCheckpointFileManager implements CheckpointFileManager {

  static final String SETTING = "spark.sql.streaming.checkpointFileManagerClass";

  private static final ConcurrentSkipListMap<String, byte[]> FILES = new ConcurrentSkipListMap<>();

  private final Path root;

  public NoIoCheckpointFileManager(Path path, Configuration conf) {
    this.root = path;
  }

  private static String key(Path path) {
    return Path.getPathWithoutSchemeAndAuthority(path).toString();
  }

  /** Forgets every file (between benchmark runs). */
  static void clear() {
    FILES.clear();
  }

  @Override
  public CancellableFSDataOutputStream createAtomic(Path path, boolean overwriteIfPossible) {
    String key = key(path);
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    return new CancellableFSDataOutputStream(bytes) {
      private boolean done;

      @Override
      public void cancel() {
        done = true;
      }

      @Override
      public void close() throws IOException {
        if (done) {
          return;
        }
        done = true;
        super.close();
        byte[] content = bytes.toByteArray();
        if (overwriteIfPossible) {
          FILES.put(key, content);
        } else if (FILES.putIfAbsent(key, content) != null) {
          throw new FileAlreadyExistsException(key + " exists");
        }
      }
    };
  }

  @Override
  public FSDataInputStream open(Path path) {
    byte[] content = FILES.get(key(path));
    if (content == null) {
      // Spark (Scala) catches FileNotFoundException here, which Java cannot declare on this method.
      throw NoIoCheckpointFileManager.<RuntimeException>sneaky(
          new java.io.FileNotFoundException(key(path)));
    }
    return new FSDataInputStream(new SeekableBytes(content));
  }

  @SuppressWarnings("unchecked")
  private static <T extends Throwable> T sneaky(Throwable t) throws T {
    throw (T) t;
  }

  @Override
  public FileStatus[] list(Path path, PathFilter filter) {
    String dir = key(path) + "/";
    List<FileStatus> out = new ArrayList<>();
    for (Map.Entry<String, byte[]> e : FILES.tailMap(dir).entrySet()) {
      if (!e.getKey().startsWith(dir)) {
        break;
      }
      if (e.getKey().indexOf('/', dir.length()) >= 0) {
        continue;
      }
      Path file = new Path(path, e.getKey().substring(dir.length()));
      if (filter.accept(file)) {
        out.add(new FileStatus(e.getValue().length, false, 1, 1, 0, file));
      }
    }
    return out.toArray(new FileStatus[0]);
  }

  @Override
  public void mkdirs(Path path) {}

  @Override
  public boolean exists(Path path) {
    String key = key(path);
    if (FILES.containsKey(key)) {
      return true;
    }
    String dir = key + "/";
    String next = FILES.ceilingKey(dir);
    return next != null && next.startsWith(dir);
  }

  @Override
  public void delete(Path path) {
    FILES.remove(key(path));
  }

  @Override
  public boolean isLocal() {
    return true;
  }

  @Override
  public Path createCheckpointDirectory() {
    // Spark asks the manager built for the checkpoint root to create it: nothing to create here.
    return root;
  }

  /** A byte array as the seekable stream {@link FSDataInputStream} requires. */
  private static final class SeekableBytes extends ByteArrayInputStream
      implements Seekable, PositionedReadable {

    SeekableBytes(byte[] content) {
      super(content);
    }

    @Override
    public void seek(long position) {
      pos = (int) position;
    }

    @Override
    public long getPos() {
      return pos;
    }

    @Override
    public boolean seekToNewSource(long targetPos) {
      return false;
    }

    @Override
    public int read(long position, byte[] buffer, int offset, int length) {
      if (position >= count) {
        return -1;
      }
      int n = (int) Math.min(length, count - position);
      System.arraycopy(buf, (int) position, buffer, offset, n);
      return n;
    }

    @Override
    public void readFully(long position, byte[] buffer, int offset, int length) throws IOException {
      if (read(position, buffer, offset, length) < length) {
        throw new java.io.EOFException("end of checkpoint file");
      }
    }

    @Override
    public void readFully(long position, byte[] buffer) throws IOException {
      readFully(position, buffer, 0, buffer.length);
    }
  }
}
