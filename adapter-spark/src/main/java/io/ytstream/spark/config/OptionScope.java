package io.ytstream.spark.config;

/** Where an option of the {@code yt} data source applies. */
public enum OptionScope {
  /** {@code spark.read} and {@code spark.readStream}. */
  READ,
  /** {@code write}, {@code writeStream}. */
  WRITE,
  /** Both. */
  BOTH;

  boolean covers(OptionScope use) {
    return this == BOTH || use == BOTH || this == use;
  }
}
