package io.ytstream.spark.writers;

import java.time.Duration;

/**
 * The settings both ytstream {@code ForeachWriter} builders share: cluster, token, output table and
 * flush policy. {@code B} is the concrete builder, so each setter returns it and chains on to that
 * builder's own settings.
 *
 * @param <B> the concrete builder
 */
public abstract class ForeachWriterBuilder<B extends ForeachWriterBuilder<B>> {

  private String proxy;
  private String token;
  private String path;
  private Duration flushInterval = Duration.ofMillis(5);
  private int maxBufferedRows = 1_000;

  // Package-private: only this package's writers have builders.
  ForeachWriterBuilder() {}

  abstract B self();

  /** The cluster; defaults to the session's {@code spark.hadoop.yt.proxy}. */
  public B proxy(String proxy) {
    this.proxy = proxy;
    return self();
  }

  /** The token; defaults to the session's {@code spark.hadoop.yt.token}. Never logged. */
  public B token(String token) {
    this.token = token;
    return self();
  }

  /** The output table (ordered for the append writer, sorted for the exactly-once writer). */
  public B path(String path) {
    this.path = path;
    return self();
  }

  /** Longest time a row waits in the writer (default 5 ms; 0 writes every row at once). */
  public B flushInterval(Duration interval) {
    this.flushInterval = interval;
    return self();
  }

  /** Most rows held before a write (default 1,000). */
  public B maxBufferedRows(int rows) {
    this.maxBufferedRows = rows;
    return self();
  }

  /** Checks the settings and fills what is missing from the active session (on the driver). */
  ForeachWriterConfig resolve(String writer) {
    return ForeachWriterConfig.resolve(writer, proxy, token, path, flushInterval, maxBufferedRows);
  }
}
