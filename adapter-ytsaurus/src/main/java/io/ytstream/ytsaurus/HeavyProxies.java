package io.ytstream.ytsaurus;

import java.net.URI;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The heavy proxies from {@code GET /hosts} ({@code yt/yt/server/http_proxy/coordinator.cpp}: the
 * least loaded first, banned ones left out) and the ones this client found unavailable. As the
 * Python client's {@code HeavyProxyProvider} ({@code yt/python/yt/wrapper/http_driver.py}), a heavy
 * command outside a transaction goes to one of the first {@link ProxyFailover#TOP_PROXIES} proxies
 * not banned, at random, and a proxy that answered 503 or could not be reached is banned locally
 * for {@link ProxyFailover#banTime} (when every proxy is banned, one of the first is tried anyway).
 * Each new tablet transaction is pinned to the next proxy not banned in turn, and every request of
 * that transaction goes there ({@code yt/yt/client/api/sticky_transaction_pool.cpp}). The list is
 * fetched once per minute; with discovery off, or when {@code /hosts} is empty, the configured
 * proxy serves everything.
 */
final class HeavyProxies {

  private static final long REFRESH_MILLIS = 60_000;

  private final YtHttpClient client;
  private final boolean discover;
  private final long banNanos;
  private final Random random;
  private final AtomicInteger turn = new AtomicInteger();
  private final Map<URI, Long> bannedUntil = new HashMap<>();
  private List<URI> cached = List.of();
  private long fetchedAtNanos;

  HeavyProxies(YtHttpClient client, boolean discover, ProxyFailover failover) {
    this.client = client;
    this.discover = discover;
    this.banNanos = failover.banTime().toNanos();
    this.random =
        failover.seed().isPresent() ? new Random(failover.seed().getAsLong()) : new Random();
  }

  /** Where a heavy command that belongs to no transaction goes: attempt by attempt. */
  ProxyTarget forHeavyCommand() {
    return ProxyTarget.heavy(this::pickHeavy, this);
  }

  /**
   * Where {@code start_transaction} goes; the proxy that answers it ({@link ProxyTarget#current})
   * holds the transaction.
   */
  ProxyTarget forNewTransaction() {
    return ProxyTarget.heavy(this::pickForTransaction, this);
  }

  /** The requests of a transaction that lives on {@code proxy}. */
  ProxyTarget transaction(URI proxy) {
    return ProxyTarget.transaction(proxy, this);
  }

  /** Skips {@code proxy} for the ban time, while other proxies remain. */
  synchronized void ban(URI proxy) {
    bannedUntil.put(proxy, System.nanoTime() + banNanos);
  }

  synchronized boolean banned(URI proxy) {
    Long until = bannedUntil.get(proxy);
    if (until == null) {
      return false;
    }
    if (System.nanoTime() - until >= 0) {
      bannedUntil.remove(proxy);
      return false;
    }
    return true;
  }

  /** Whether some proxy is not banned. */
  synchronized boolean anyServing() {
    return !serving(hosts()).isEmpty();
  }

  /** Forgets the list, so the next heavy command fetches {@code /hosts} again. */
  synchronized void invalidate() {
    cached = List.of();
  }

  private synchronized URI pickHeavy() {
    List<URI> hosts = hosts();
    List<URI> serving = serving(hosts);
    List<URI> from = serving.isEmpty() ? hosts : serving;
    return from.get(random.nextInt(Math.min(ProxyFailover.TOP_PROXIES, from.size())));
  }

  private synchronized URI pickForTransaction() {
    List<URI> hosts = hosts();
    List<URI> serving = serving(hosts);
    List<URI> from = serving.isEmpty() ? hosts : serving;
    return from.get(Math.floorMod(turn.getAndIncrement(), from.size()));
  }

  private List<URI> serving(List<URI> hosts) {
    List<URI> serving = new ArrayList<>(hosts.size());
    for (URI host : hosts) {
      if (!banned(host)) {
        serving.add(host);
      }
    }
    return serving;
  }

  private synchronized List<URI> hosts() {
    if (!discover) {
      return List.of(client.primaryProxy());
    }
    long now = System.nanoTime();
    if (cached.isEmpty() || now - fetchedAtNanos > REFRESH_MILLIS * 1_000_000) {
      List<URI> fresh = new ArrayList<>();
      for (String entry : client.hosts()) {
        fresh.add(ProxyAddress.fromHostsEntry(entry, client.primaryProxy()));
      }
      cached = fresh.isEmpty() ? List.of(client.primaryProxy()) : List.copyOf(fresh);
      fetchedAtNanos = now;
    }
    return cached;
  }
}
