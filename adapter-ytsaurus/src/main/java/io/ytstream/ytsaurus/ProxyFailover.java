package io.ytstream.ytsaurus;

import java.time.Duration;
import java.util.Objects;
import java.util.OptionalLong;

/**
 * How the client leaves an unavailable heavy proxy, as the official Python client does ({@code
 * yt/python/yt/wrapper/http_driver.py}, {@code HeavyProxyProvider}; defaults from {@code
 * default_config.py}).
 *
 * @param banTime how long a proxy that answered 503 or could not be reached is skipped while others
 *     remain ({@code proxy_ban_timeout}, 120 s); setting {@code yt.http.proxyBanMs}
 * @param seed the seed of the random choice among the first heavy proxies, for repeatable runs;
 *     empty: seeded from the clock. Setting {@code yt.http.proxyChoiceSeed}
 */
public record ProxyFailover(Duration banTime, OptionalLong seed) {

  /** {@code number_of_top_proxies_for_random_choice}: heavy requests go to one of these. */
  static final int TOP_PROXIES = 5;

  static final ProxyFailover DEFAULTS =
      new ProxyFailover(Duration.ofMinutes(2), OptionalLong.empty());

  public ProxyFailover {
    Objects.requireNonNull(banTime, "banTime");
    Objects.requireNonNull(seed, "seed");
    if (banTime.isNegative()) {
      throw new IllegalArgumentException("banTime must not be negative, got " + banTime);
    }
  }
}
