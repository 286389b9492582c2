package io.ytstream.ports.spi;

/**
 * A service-provider interface: each adapter registers one in {@code
 * META-INF/services/io.ytstream.ports.spi.ClusterConnector}, and {@link ClusterConnectors} picks
 * the one that accepts an address ({@code inmemory:<name>}, {@code http(s)://proxy}, a bare host).
 */
public interface ClusterConnector {

  /** A short name for messages, e.g. {@code inmemory} or {@code ytsaurus-http}. */
  String name();

  /** Address forms this connector accepts, for the error shown when none accepts. */
  String addressForms();

  boolean accepts(String address);

  YtCluster connect(String address, ConnectionSettings settings);
}
