package io.ytstream.ytsaurus;

import java.net.URI;
import java.util.function.Supplier;

/**
 * Where the attempts of one call go: the cluster address, the one proxy a tablet transaction lives
 * on, or any heavy proxy (each attempt may go to another). A proxy found unavailable is banned in
 * {@link HeavyProxies}, so other calls skip it too.
 */
final class ProxyTarget {

  /** What may change between attempts. */
  enum Kind {
    /**
     * The configured address: often a balancer in front of several proxies, so a repeat may reach
     * another one.
     */
    CLUSTER_ADDRESS,
    /**
     * The proxy that holds a tablet transaction in its sticky pool ({@code
     * yt/yt/client/api/sticky_transaction_pool.cpp}): no other proxy knows it.
     */
    TRANSACTION,
    /** Any heavy proxy: an unavailable one is left for another at once. */
    HEAVY
  }

  private final Kind kind;
  private final Supplier<URI> pick;
  private final HeavyProxies bans;
  private URI current;

  private ProxyTarget(Kind kind, Supplier<URI> pick, HeavyProxies bans) {
    this.kind = kind;
    this.pick = pick;
    this.bans = bans;
  }

  static ProxyTarget clusterAddress(URI address) {
    return new ProxyTarget(Kind.CLUSTER_ADDRESS, () -> address, null);
  }

  /** The proxy of a transaction; {@code bans}, when given, learns that it is unavailable. */
  static ProxyTarget transaction(URI proxy, HeavyProxies bans) {
    return new ProxyTarget(Kind.TRANSACTION, () -> proxy, bans);
  }

  static ProxyTarget heavy(Supplier<URI> pick, HeavyProxies bans) {
    return new ProxyTarget(Kind.HEAVY, pick, bans);
  }

  Kind kind() {
    return kind;
  }

  /** The proxy for the next attempt. */
  URI next() {
    current = pick.get();
    return current;
  }

  /** The proxy of the last attempt (the one that answered, after a success). */
  URI current() {
    return current;
  }

  /**
   * {@code proxy} answered 503 or could not be reached: it is banned for a while. Returns whether
   * the next attempt can go to another proxy that is not banned.
   */
  boolean leave(URI proxy) {
    if (bans == null) {
      return false;
    }
    bans.ban(proxy);
    return kind == Kind.HEAVY && bans.anyServing();
  }

  @Override
  public String toString() {
    return kind + (current == null ? "" : " " + current);
  }
}
