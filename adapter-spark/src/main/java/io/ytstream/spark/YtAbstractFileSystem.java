package io.ytstream.spark;

import java.io.IOException;
import java.net.URI;
import java.net.URISyntaxException;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.DelegateToFileSystem;

/**
 * The {@code yt} scheme for Hadoop's {@code FileContext} (set as {@code
 * fs.AbstractFileSystem.yt.impl}), which Spark's default checkpoint manager prefers.
 */
public class YtAbstractFileSystem extends DelegateToFileSystem {

  public YtAbstractFileSystem(URI uri, Configuration conf) throws IOException, URISyntaxException {
    super(uri, new YtFileSystem(), conf, YtFileSystem.SCHEME, false);
  }

  @Override
  public int getUriDefaultPort() {
    return -1;
  }
}
