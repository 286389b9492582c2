package io.ytstream.simulation;

import io.ytstream.core.model.YPath;
import java.nio.charset.StandardCharsets;
import java.util.OptionalLong;

/**
 * Spark's {@code offsets/} and {@code commits/} logs as {@code HDFSMetadataLog} keeps them over the
 * yt:// file system: a batch's file is written under a temporary name, then renamed into place; a
 * name already taken means another driver wrote the batch, and the query fails.
 */
final class SparkLogFiles {

  private final FaultyPorts io;
  private final int driverId;
  private int tmpSeq;

  SparkLogFiles(FaultyPorts io, int driverId) {
    this.io = io;
    this.driverId = driverId;
  }

  YPath writeTmp(YPath dir, long n, String content) {
    YPath tmp = dir.child("." + n + "." + driverId + "-" + tmpSeq++ + ".tmp");
    io.writeFile(tmp, content.getBytes(StandardCharsets.UTF_8), false);
    return tmp;
  }

  void publish(YPath dir, long n, YPath tmp) {
    YPath target = dir.child(Long.toString(n));
    if (io.status(target).isPresent()) {
      throw new QueryFailure("concurrent update to the log: " + target + " exists", false, null);
    }
    io.rename(tmp, target);
  }

  /** The newest batch in the log, if any. */
  OptionalLong latest(YPath dir) {
    long max = -1;
    for (String name : io.list(dir)) {
      if (!name.isEmpty() && Character.isDigit(name.charAt(0))) {
        max = Math.max(max, Long.parseLong(name));
      }
    }
    return max < 0 ? OptionalLong.empty() : OptionalLong.of(max);
  }
}
