package io.ytstream.spark.sink;

import io.ytstream.core.model.OffsetRange;
import io.ytstream.core.model.PartitionId;
import io.ytstream.core.model.StreamOffsets;
import io.ytstream.spark.checkpoint.CheckpointBatchRanges;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/**
 * The newest batch of a checkpoint's offset log and the end offsets of its yt sources. When Spark
 * asks the sink for a batch's writer factory it has just written that batch's {@code offsets/N} (a
 * new batch) or found it without {@code commits/N} (a replay), so the newest entry is the batch
 * about to run.
 */
record LatestBatchEnd(long batchId, StreamOffsets offsets) {

  static Optional<LatestBatchEnd> read(Path checkpointRoot, Configuration conf) {
    long latest = -1;
    try {
      Path offsets = new Path(checkpointRoot, "offsets");
      FileSystem fs = offsets.getFileSystem(conf);
      if (!fs.exists(offsets)) {
        return Optional.empty();
      }
      for (FileStatus f : fs.listStatus(offsets)) {
        String name = f.getPath().getName();
        if (f.isFile() && !name.isEmpty() && name.chars().allMatch(Character::isDigit)) {
          latest = Math.max(latest, Long.parseLong(name));
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot list the offset log under " + checkpointRoot, e);
    }
    if (latest < 0) {
      return Optional.empty();
    }
    Map<PartitionId, Long> end = new LinkedHashMap<>();
    for (OffsetRange r : CheckpointBatchRanges.read(checkpointRoot, conf, latest).ranges()) {
      end.put(r.partition(), r.upper());
    }
    return Optional.of(new LatestBatchEnd(latest, StreamOffsets.of(end)));
  }
}
