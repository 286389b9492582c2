package io.ytstream.ytsaurus;

import java.net.URI;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * A proxy address normalized to {@code scheme://host[:port]}. YTsaurus users write a bare host
 * ({@code hahn} or {@code localhost:8000}); that means {@code http://}, as in the official clients.
 */
final class ProxyAddress {

  /** A host name or IPv4 address, optionally with a port; nothing else (no scheme, no path). */
  private static final Pattern BARE_HOST =
      Pattern.compile("[A-Za-z0-9]([A-Za-z0-9.-]*[A-Za-z0-9])?(:[0-9]{1,5})?");

  private ProxyAddress() {}

  static boolean accepts(String address) {
    if (address == null) {
      return false;
    }
    String lower = address.strip().toLowerCase(Locale.ROOT);
    if (lower.startsWith("http://") || lower.startsWith("https://")) {
      return true;
    }
    return BARE_HOST.matcher(address.strip()).matches();
  }

  /** The base URI ({@code http://host:port}, no trailing slash, no path). */
  static URI normalize(String address) {
    if (!accepts(address)) {
      throw new IllegalArgumentException(
          "'"
              + address
              + "' is not a YTsaurus proxy address (http://host[:port], https://..., or a"
              + " bare host name)");
    }
    String text = address.strip();
    if (!text.toLowerCase(Locale.ROOT).startsWith("http")) {
      text = "http://" + text;
    }
    URI uri = URI.create(text);
    if (uri.getHost() == null) {
      throw new IllegalArgumentException("proxy address '" + address + "' has no host");
    }
    String path = uri.getPath() == null ? "" : uri.getPath();
    if (!path.isEmpty() && !path.equals("/")) {
      throw new IllegalArgumentException(
          "proxy address '" + address + "' has a path; give scheme://host[:port] only");
    }
    return URI.create(
        uri.getScheme().toLowerCase(Locale.ROOT)
            + "://"
            + uri.getHost()
            + (uri.getPort() >= 0 ? ":" + uri.getPort() : ""));
  }

  /**
   * A host from {@code /hosts} with the scheme of the cluster address, and its port when the entry
   * has none: the server lists bare host names by default ({@code show_ports} is false, {@code
   * yt/yt/server/http_proxy/coordinator.cpp}), and a client reaches them the way it reached the
   * cluster address, as the Python client does.
   */
  static URI fromHostsEntry(String entry, URI primary) {
    String text = entry.strip();
    if (text.contains("://")) {
      return normalize(text);
    }
    URI host = normalize(primary.getScheme() + "://" + text);
    if (host.getPort() >= 0 || primary.getPort() < 0) {
      return host;
    }
    return URI.create(host.getScheme() + "://" + host.getHost() + ":" + primary.getPort());
  }
}
