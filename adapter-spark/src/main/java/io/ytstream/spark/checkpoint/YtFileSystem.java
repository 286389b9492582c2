package io.ytstream.spark.checkpoint;

import io.ytstream.core.error.YtErrorCode;
import io.ytstream.core.error.YtException;
import io.ytstream.core.model.YPath;
import io.ytstream.ports.CheckpointStore;
import io.ytstream.ports.NodeStatus;
import io.ytstream.ports.spi.YtCluster;
import io.ytstream.spark.config.ClusterRef;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.Supplier;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileAlreadyExistsException;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.PositionedReadable;
import org.apache.hadoop.fs.Seekable;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.util.Progressable;

/**
 * The Hadoop file system of the {@code yt} scheme, for {@code checkpointLocation = "yt:///path"}:
 * {@code yt:/a/b} is the Cypress node {@code //a/b} of the {@link CheckpointStore} of the cluster
 * named by {@code yt.proxy} (or {@code spark.hadoop.yt.proxy}) in the Hadoop configuration.
 *
 * <p>Registered through {@code META-INF/services/org.apache.hadoop.fs.FileSystem}; {@link
 * #register} also names {@link YtAbstractFileSystem} so Spark uses its FileContext-based checkpoint
 * manager. Files are written whole when the stream closes. {@link #rename} never replaces an
 * existing target: it returns false, so two drivers can never both publish one log entry.
 */
public class YtFileSystem extends FileSystem {

  public static final String SCHEME = "yt";
  static final String PROXY_KEY = "yt.proxy";

  static {
    Configuration.addDefaultResource("ytstream-yt-filesystem.xml");
  }

  /**
   * The threads that run checkpoint changes for {@link #settled}: shared by every instance (Spark
   * makes one per log and never closes it), daemons, gone after a minute idle.
   */
  private static final ExecutorService CHANGES =
      Executors.newCachedThreadPool(
          r -> {
            Thread t = new Thread(r, "ytstream-checkpoint-change");
            t.setDaemon(true);
            return t;
          });

  private URI uri;
  private Path workingDir;
  private YtCluster cluster;
  private CheckpointStore store;

  /**
   * Directories this instance created or saw, so that writing {@code offsets/N} does not ask again
   * whether {@code offsets/} exists (each question is a round trip to a remote cluster). Forgotten
   * when this instance deletes them; should another client remove one, the next write there fails
   * with {@link FileNotFoundException}, as it would without this set. Iteration order never decides
   * anything (only look-ups and a remove-if).
   */
  private final Set<YPath> knownDirectories = ConcurrentHashMap.newKeySet();

  /** Sets the {@code yt} scheme's implementations in {@code conf} unless they are already set. */
  public static void register(Configuration conf) {
    if (conf.get("fs." + SCHEME + ".impl") == null) {
      conf.set("fs." + SCHEME + ".impl", YtFileSystem.class.getName());
    }
    if (conf.get("fs.AbstractFileSystem." + SCHEME + ".impl") == null) {
      conf.set("fs.AbstractFileSystem." + SCHEME + ".impl", YtAbstractFileSystem.class.getName());
    }
    // Instances are bound to the cluster in the configuration they were made with.
    conf.setIfUnset("fs." + SCHEME + ".impl.disable.cache", "true");
  }

  @Override
  public String getScheme() {
    return SCHEME;
  }

  @Override
  public void initialize(URI name, Configuration conf) throws IOException {
    super.initialize(name, conf);
    setConf(conf);
    this.uri = URI.create(SCHEME + ":///");
    this.workingDir = new Path("/");
    String address = conf.get(PROXY_KEY, conf.get("spark.hadoop." + PROXY_KEY));
    Map<String, String> all = new java.util.TreeMap<>();
    conf.getPropsWithPrefix("yt.").forEach((k, v) -> all.put("yt." + k, v));
    conf.getPropsWithPrefix("spark.hadoop.yt.")
        .forEach((k, v) -> all.put("spark.hadoop.yt." + k, v));
    Map<String, String> settings = ClusterRef.connectionSettings(all);
    if (address == null || address.isBlank()) {
      throw new IOException(
          "the yt file system needs the cluster: set spark.hadoop.yt.proxy (Hadoop setting"
              + " yt.proxy), e.g. inmemory:demo or http://localhost:8000");
    }
    this.cluster = new ClusterRef(address, settings).connect();
    this.store = cluster.checkpoints();
  }

  static YPath toYPath(Path path) {
    String p = path.toUri().getPath();
    if (p == null || p.isEmpty() || p.equals("/")) {
      return YPath.of("//");
    }
    if (p.endsWith("/")) {
      p = p.substring(0, p.length() - 1);
    }
    return YPath.of("/" + p);
  }

  private Path toPath(YPath ypath) {
    return new Path(uri.getScheme(), null, ypath.value().substring(1));
  }

  private Path absolute(Path path) {
    return path.isAbsolute() ? path : new Path(workingDir, path);
  }

  @Override
  public URI getUri() {
    return uri;
  }

  @Override
  public FSDataInputStream open(Path f, int bufferSize) throws IOException {
    YPath p = toYPath(absolute(f));
    byte[] bytes;
    try {
      bytes = store.readFile(p);
    } catch (YtException e) {
      throw translate(e, f);
    }
    return new FSDataInputStream(new BytesInput(bytes));
  }

  @Override
  public FSDataOutputStream create(
      Path f,
      FsPermission permission,
      boolean overwrite,
      int bufferSize,
      short replication,
      long blockSize,
      Progressable progress)
      throws IOException {
    YPath p = toYPath(absolute(f));
    Optional<NodeStatus> existing = status(p);
    if (existing.isPresent() && (!overwrite || existing.get().directory())) {
      throw new FileAlreadyExistsException(f + " already exists");
    }
    Path parent = absolute(f).getParent();
    if (parent != null) {
      mkdirs(parent, permission);
    }
    return new FSDataOutputStream(
        new ByteArrayOutputStream() {
          private boolean closed;

          @Override
          public void close() throws IOException {
            if (closed) {
              return;
            }
            closed = true;
            try {
              byte[] bytes = toByteArray();
              settled(() -> store.writeFile(p, bytes, overwrite));
            } catch (YtException e) {
              removeLeftoverTempFile(p);
              throw translate(e, f);
            } catch (RuntimeException e) {
              removeLeftoverTempFile(p);
              throw e;
            }
          }
        },
        statistics);
  }

  @Override
  public FSDataOutputStream append(Path f, int bufferSize, Progressable progress)
      throws IOException {
    throw new IOException("the yt file system does not append; checkpoints never need it");
  }

  @Override
  public boolean rename(Path src, Path dst) throws IOException {
    YPath from = toYPath(absolute(src));
    YPath to = toYPath(absolute(dst));
    // One request: the store's rename fails with 500 when the source (or the target's parent) is
    // missing and with 501 when the target exists, which is exactly when Hadoop's rename answers
    // false; asking first would only add round trips and a race.
    try {
      settled(() -> store.rename(from, to));
      forgetDirectoriesUnder(from);
      return true;
    } catch (YtException e) {
      if (e.hasCode(YtErrorCode.ALREADY_EXISTS) || e.hasCode(YtErrorCode.RESOLVE_ERROR)) {
        return false;
      }
      // Refused otherwise: the source may still be there, a temporary file nobody will publish.
      removeLeftoverTempFile(from);
      throw translate(e, src);
    } catch (RuntimeException e) {
      // Interrupted or lost: as above (if the move landed, there is nothing left to remove).
      removeLeftoverTempFile(from);
      throw e;
    }
  }

  /**
   * Removes what a write or rename that failed may have left at {@code p}. A failed write of a
   * checkpoint log entry leaves its temporary file behind (Spark's {@code cancel()} does nothing
   * after a failed {@code close()}). Left behind, the file makes Spark refuse the restart of a
   * query whose offset log is empty ({@code verifyNewCheckpointDirectory} counts every file in
   * {@code offsets/} and {@code commits/}), which Real-time Mode reaches whenever a query stops
   * before its first {@code commits/0}: it drops the {@code offsets/0} without it. Best effort: a
   * failure here is ignored. Only Spark's temporary files (their names are unique to one write) are
   * removed; any other file may be someone else's.
   */
  private void removeLeftoverTempFile(YPath p) {
    if (!isSparkTempFile(p)) {
      return;
    }
    try {
      settled(() -> store.delete(p, false));
    } catch (RuntimeException e) {
      // The write's own failure is what the caller reports.
    }
  }

  @Override
  public boolean delete(Path f, boolean recursive) throws IOException {
    YPath p = toYPath(absolute(f));
    forgetDirectoriesUnder(p);
    try {
      return settled(() -> store.delete(p, recursive));
    } catch (YtException e) {
      throw translate(e, f);
    }
  }

  /**
   * Spark's temporary name for a file it publishes by rename: {@code .<name>.<uuid>[.TID<n>].tmp}.
   */
  static boolean isSparkTempFile(YPath p) {
    String name = p.value().substring(p.value().lastIndexOf('/') + 1);
    return name.startsWith(".") && name.endsWith(".tmp");
  }

  @Override
  public FileStatus[] listStatus(Path f) throws IOException {
    YPath p = toYPath(absolute(f));
    NodeStatus self = status(p).orElseThrow(() -> new FileNotFoundException(f + " not found"));
    if (!self.directory()) {
      return new FileStatus[] {toStatus(self)};
    }
    List<FileStatus> out = new ArrayList<>();
    List<String> names;
    try {
      names = store.list(p);
    } catch (YtException e) {
      throw translate(e, f);
    }
    for (String name : names) {
      status(p.child(name)).ifPresent(s -> out.add(toStatus(s)));
    }
    return out.toArray(new FileStatus[0]);
  }

  @Override
  public void setWorkingDirectory(Path newDir) {
    workingDir = absolute(newDir);
  }

  @Override
  public Path getWorkingDirectory() {
    return workingDir;
  }

  @Override
  public boolean mkdirs(Path f, FsPermission permission) throws IOException {
    YPath p = toYPath(absolute(f));
    if (knownDirectories.contains(p)) {
      return true;
    }
    Optional<NodeStatus> existing = status(p);
    if (existing.isPresent()) {
      if (!existing.get().directory()) {
        throw new FileAlreadyExistsException(f + " exists and is a file");
      }
      rememberDirectory(p);
      return true;
    }
    try {
      settled(() -> store.createDirectories(p));
      rememberDirectory(p);
      return true;
    } catch (YtException e) {
      throw translate(e, f);
    }
  }

  @Override
  public FileStatus getFileStatus(Path f) throws IOException {
    return toStatus(
        status(toYPath(absolute(f)))
            .orElseThrow(() -> new FileNotFoundException(f + " not found")));
  }

  /** Whether {@code f} is a directory this instance created or saw (no request is sent). */
  boolean isKnownDirectory(Path f) {
    return knownDirectories.contains(toYPath(absolute(f)));
  }

  /** {@code directory} and its ancestors exist (creating a node creates its parents). */
  private void rememberDirectory(YPath directory) {
    for (YPath p = directory; p != null; p = parentOf(p)) {
      knownDirectories.add(p);
    }
  }

  private static YPath parentOf(YPath p) {
    String value = p.value();
    int slash = value.lastIndexOf('/');
    return slash <= 1 ? null : YPath.of(value.substring(0, slash));
  }

  /** {@code node} and everything below it may be gone. */
  private void forgetDirectoriesUnder(YPath node) {
    String prefix = node.value() + "/";
    knownDirectories.removeIf(d -> d.equals(node) || d.value().startsWith(prefix));
  }

  /**
   * Runs a change to the checkpoint to its end, also when the calling thread is interrupted (a
   * stopping query interrupts its driver thread wherever it is), and keeps the interrupt for the
   * caller's next wait. Abandoned, a request may still reach the cluster after the caller gave up:
   * a {@code move} publishing {@code commits/N} that lands after the next run read the logs, and
   * Real-time Mode drops that run's {@code offsets/N} as uncommitted, leaves {@code commits/N}
   * without {@code offsets/N}, which Spark cannot restart from. Settled, every change has happened
   * or not before the caller goes on, as Spark's checkpoint logs assume. Reads need no such care.
   */
  private static <T> T settled(Supplier<T> change) {
    Future<T> running = CHANGES.submit(change::get);
    boolean interrupted = false;
    try {
      while (true) {
        try {
          return running.get();
        } catch (InterruptedException e) {
          interrupted = true;
        } catch (ExecutionException e) {
          Throwable cause = e.getCause();
          if (cause instanceof RuntimeException r) {
            throw r;
          }
          if (cause instanceof Error err) {
            throw err;
          }
          throw new IllegalStateException(cause);
        }
      }
    } finally {
      if (interrupted) {
        Thread.currentThread().interrupt();
      }
    }
  }

  private static void settled(Runnable change) {
    var unused =
        settled(
            () -> {
              change.run();
              return true;
            });
  }

  private Optional<NodeStatus> status(YPath p) throws IOException {
    try {
      Optional<NodeStatus> status = store.status(p);
      if (status.isEmpty()) {
        forgetDirectoriesUnder(p);
      } else if (status.get().directory()) {
        rememberDirectory(p);
      }
      return status;
    } catch (YtException e) {
      throw new IOException("cannot get the status of " + p + ": " + e.getMessage(), e);
    }
  }

  private FileStatus toStatus(NodeStatus s) {
    return new FileStatus(
        s.directory() ? 0 : s.length(),
        s.directory(),
        1,
        s.directory() ? 0 : 64L * 1024 * 1024,
        s.modificationTimeMillis(),
        toPath(s.path()));
  }

  private static IOException translate(YtException e, Path path) {
    if (e.hasCode(YtErrorCode.RESOLVE_ERROR)) {
      FileNotFoundException f = new FileNotFoundException(path + ": " + e.getMessage());
      f.initCause(e);
      return f;
    }
    if (e.hasCode(YtErrorCode.ALREADY_EXISTS)) {
      FileAlreadyExistsException f = new FileAlreadyExistsException(path + ": " + e.getMessage());
      f.initCause(e);
      return f;
    }
    return new IOException(path + ": " + e.getMessage(), e);
  }

  @Override
  public void close() throws IOException {
    try {
      super.close();
    } finally {
      if (cluster != null) {
        cluster.close();
      }
    }
  }

  /** A whole file in memory, seekable as Hadoop's input streams must be. */
  private static final class BytesInput extends ByteArrayInputStream
      implements Seekable, PositionedReadable {

    BytesInput(byte[] bytes) {
      super(bytes);
    }

    @Override
    public synchronized void seek(long position) throws IOException {
      if (position < 0 || position > count) {
        throw new EOFException("cannot seek to " + position + " of " + count);
      }
      pos = (int) position;
    }

    @Override
    public synchronized long getPos() {
      return pos;
    }

    @Override
    public boolean seekToNewSource(long targetPos) {
      return false;
    }

    @Override
    public synchronized int read(long position, byte[] buffer, int offset, int length) {
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
        throw new EOFException("end of file before " + (position + length));
      }
    }

    @Override
    public void readFully(long position, byte[] buffer) throws IOException {
      readFully(position, buffer, 0, buffer.length);
    }
  }
}
