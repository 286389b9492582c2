package io.ytstream.ytsaurus;

import io.ytstream.ports.spi.ClusterConnector;
import io.ytstream.ports.spi.ConnectionSettings;
import io.ytstream.ports.spi.YtCluster;

/**
 * Registered through {@code META-INF/services}: accepts {@code http://host[:port]}, {@code
 * https://host[:port]} and a bare proxy host name ({@code hahn}, {@code localhost:8000}).
 */
public final class YtsaurusConnector implements ClusterConnector {

  @Override
  public String name() {
    return "ytsaurus-http";
  }

  @Override
  public String addressForms() {
    return "http://host[:port], https://host[:port], or a bare proxy host name (host[:port])";
  }

  @Override
  public boolean accepts(String address) {
    return ProxyAddress.accepts(address);
  }

  @Override
  public YtCluster connect(String address, ConnectionSettings settings) {
    return YtsaurusCluster.connectShared(
        YtsaurusClientConfig.fromSettings(address, settings.asMap()));
  }
}
