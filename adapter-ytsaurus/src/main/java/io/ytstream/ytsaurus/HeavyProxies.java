package io.ytstream.ytsaurus;

import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The heavy proxies from {@code GET /hosts} ({@code yt/yt/server/http_proxy/coordinator.cpp},
 * {@code yt/yt/client/api/sticky_transaction_pool.cpp}). Heavy commands outside a transaction go to
 * the first (least loaded) one; each new tablet transaction is pinned to the next one in turn, and
 * every request of that transaction goes there. The list is fetched once per {@code refreshMillis};
 * with discovery off, or when {@code /hosts} is empty, the configured proxy serves everything.
 */
final class HeavyProxies {

  private static final long REFRESH_MILLIS = 60_000;

  private final YtHttpClient client;
  private final boolean discover;
  private final AtomicInteger turn = new AtomicInteger();
  private List<URI> cached = List.of();
  private long fetchedAtNanos;

  HeavyProxies(YtHttpClient client, boolean discover) {
    this.client = client;
    this.discover = discover;
  }

  /** The proxy for a heavy command that belongs to no transaction. */
  URI forHeavyCommand() {
    return hosts().get(0);
  }

  /** The proxy a new tablet transaction is pinned to. */
  URI forNewTransaction() {
    List<URI> hosts = hosts();
    return hosts.get(Math.floorMod(turn.getAndIncrement(), hosts.size()));
  }

  /** Forgets the list, so the next heavy command fetches {@code /hosts} again. */
  synchronized void invalidate() {
    cached = List.of();
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
