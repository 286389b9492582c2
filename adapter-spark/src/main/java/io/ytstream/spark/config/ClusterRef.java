package io.ytstream.spark.config;

import io.ytstream.ports.spi.ClusterConnectors;
import io.ytstream.ports.spi.ConnectionSettings;
import io.ytstream.ports.spi.YtCluster;
import java.io.Serializable;
import java.util.Map;
import java.util.TreeMap;

/**
 * Where a cluster is and how to connect (address and connection settings), small enough to travel
 * in a Spark plan to executors. {@link #toString} never shows a secret (a token in particular).
 */
public final class ClusterRef implements Serializable {

  private static final long serialVersionUID = 1L;
  private static final String SPARK_HADOOP = "spark.hadoop.";
  private static final String YT = "yt.";
  private static final String PROXY = "yt.proxy";

  /** The connection setting that carries the YTsaurus token to the connector. */
  public static final String TOKEN_SETTING = "yt.token";

  private final String address;
  private final TreeMap<String, String> settings;

  public ClusterRef(String address, Map<String, String> settings) {
    this.address = address;
    this.settings = new TreeMap<>(settings);
  }

  public String address() {
    return address;
  }

  /** The settings handed to the connector (secrets included: never print this map). */
  public Map<String, String> settings() {
    return java.util.Collections.unmodifiableMap(settings);
  }

  /**
   * The connection settings in a Spark or Hadoop configuration: every {@code yt.*} key (read with
   * and without the {@code spark.hadoop.} prefix, the prefixed one winning) except the address
   * {@code yt.proxy}, passed on as {@code yt.*}. So the adapter's own settings ({@code yt.token},
   * {@code yt.http.*}, ...) reach it without adapter-spark knowing them.
   */
  public static Map<String, String> connectionSettings(Map<String, String> conf) {
    TreeMap<String, String> settings = new TreeMap<>();
    for (String prefix : new String[] {"", SPARK_HADOOP}) {
      conf.forEach(
          (key, value) -> {
            if (key.startsWith(prefix + YT) && value != null) {
              String name = key.substring(prefix.length());
              if (!name.equals(PROXY)) {
                settings.put(name, value);
              }
            }
          });
    }
    return settings;
  }

  /**
   * Connects through the connector SPI. An address no adapter on the class path accepts fails with
   * a message that names the address and the adapters present.
   */
  public YtCluster connect() {
    try {
      return ClusterConnectors.connect(
          address, ConnectionSettings.of(settings), ClusterRef.class.getClassLoader());
    } catch (IllegalArgumentException e) {
      boolean inMemory = address != null && address.startsWith("inmemory:");
      throw new IllegalArgumentException(
          e.getMessage()
              + (inMemory
                  ? ""
                  : " A YTsaurus HTTP proxy address needs the HTTP adapter"
                      + " (io.ytstream:adapter-ytsaurus) on the class path; it is delivered by its"
                      + " own issue. inmemory:<name> selects an in-memory cluster in this JVM."),
          e);
    }
  }

  @Override
  public String toString() {
    return address + " " + ConnectionSettings.of(settings);
  }
}
