package io.ytstream.spark.checkpoint;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.EnumSet;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.CreateFlag;
import org.apache.hadoop.fs.DelegateToFileSystem;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileAlreadyExistsException;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.Options.ChecksumOpt;
import org.apache.hadoop.fs.ParentNotDirectoryException;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.util.Progressable;

/**
 * The {@code yt} scheme for Hadoop's {@code FileContext} (set as {@code
 * fs.AbstractFileSystem.yt.impl}), which Spark's default checkpoint manager prefers.
 *
 * <p>Spark writes every checkpoint log entry as create-temp-file then rename-without-overwrite.
 * Hadoop's generic code around both asks the file system about the source, the target and the
 * target's parent first; on a remote cluster each question is a round trip, so the two calls are
 * overridden to let {@link YtFileSystem} answer in one request where it can: the rename relies on
 * the store's own rename failing when the target exists (YTsaurus {@code move} without {@code
 * force}, the atomic step the checkpoint's correctness rests on), and the exceptions Hadoop
 * promises are worked out only after it refused.
 */
public class YtAbstractFileSystem extends DelegateToFileSystem {

  public YtAbstractFileSystem(URI uri, Configuration conf) throws IOException, URISyntaxException {
    super(uri, new YtFileSystem(), conf, YtFileSystem.SCHEME, false);
  }

  private YtFileSystem yt() {
    return (YtFileSystem) fsImpl;
  }

  @Override
  public int getUriDefaultPort() {
    return -1;
  }

  /**
   * As {@link DelegateToFileSystem#createInternal}, without asking again what {@link
   * YtFileSystem#create} asks anyway (whether the file exists) and without asking for a parent this
   * file system already knows to be a directory.
   */
  @Override
  public FSDataOutputStream createInternal(
      Path f,
      EnumSet<CreateFlag> flag,
      FsPermission absolutePermission,
      int bufferSize,
      short replication,
      long blockSize,
      Progressable progress,
      ChecksumOpt checksumOpt,
      boolean createParent)
      throws IOException {
    if (!flag.contains(CreateFlag.CREATE) || flag.contains(CreateFlag.APPEND)) {
      return super.createInternal(
          f,
          flag,
          absolutePermission,
          bufferSize,
          replication,
          blockSize,
          progress,
          checksumOpt,
          createParent);
    }
    checkPath(f);
    Path parent = f.getParent();
    if (!createParent && parent != null && !yt().isKnownDirectory(parent)) {
      FileStatus stat = getFileStatus(parent);
      if (!stat.isDirectory()) {
        throw new ParentNotDirectoryException("parent is not a directory: " + f);
      }
    }
    return yt().create(
            f,
            absolutePermission,
            flag.contains(CreateFlag.OVERWRITE),
            bufferSize,
            replication,
            blockSize,
            progress);
  }

  /**
   * Rename without overwrite (how Spark publishes {@code offsets/N} and {@code commits/N}) is one
   * request when it succeeds; when the store refuses, the cause is looked up to throw what {@code
   * AbstractFileSystem.rename} documents. With overwrite, Hadoop's generic checks run as before.
   */
  @Override
  public void renameInternal(Path src, Path dst, boolean overwrite) throws IOException {
    if (overwrite) {
      super.renameInternal(src, dst, true);
      return;
    }
    checkPath(src);
    checkPath(dst);
    if (yt().rename(src, dst)) {
      return;
    }
    // Refused: say why, as Hadoop's generic rename would have said before trying.
    getFileStatus(src); // FileNotFoundException when the source is missing
    if (exists(dst)) {
      throw new FileAlreadyExistsException("rename destination " + dst + " already exists");
    }
    Path parent = dst.getParent();
    if (parent != null && !exists(parent)) {
      throw new FileNotFoundException("rename destination parent " + parent + " not found");
    }
    throw new IOException("rename from " + src + " to " + dst + " failed");
  }

  private boolean exists(Path p) throws IOException {
    try {
      getFileStatus(p);
      return true;
    } catch (FileNotFoundException e) {
      return false;
    }
  }
}
