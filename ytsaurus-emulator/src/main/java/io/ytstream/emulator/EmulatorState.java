package io.ytstream.emulator;

import io.ytstream.core.error.YtException;
import io.ytstream.core.model.YPath;
import io.ytstream.core.model.YtTimestamps;
import io.ytstream.inmemory.AccessDeniedException;
import io.ytstream.inmemory.InMemoryCluster;
import io.ytstream.inmemory.MasterTransactions;
import io.ytstream.ports.TimeSource;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * What the emulator keeps besides the in-memory cluster: the sticky pools of its proxies and the
 * tables created over HTTP that are not mounted yet (a real cluster creates dynamic tables
 * unmounted; tables made through the in-memory admin API count as mounted).
 */
final class EmulatorState {

  private final InMemoryCluster cluster;
  private final StickyPool pool;
  private final int rowsPerStore;
  private final Set<YPath> unmounted = ConcurrentHashMap.newKeySet();
  private final AtomicLong objectCounter = new AtomicLong();
  private final AtomicLong revision = new AtomicLong();

  /** Node ids by path and paths by id: ids are handed out when a node is first named. */
  private final Map<String, String> nodeIds = new ConcurrentHashMap<>();

  private final Map<String, YPath> nodesById = new ConcurrentHashMap<>();

  /** {@code //sys}, which a real cluster always has ({@code //sys/@cluster_name} lives there). */
  static final String SYS = "//sys";

  static final String SYS_TABLET_CELLS = "//sys/tablet_cells";
  static final String SYS_TRANSACTIONS = "//sys/transactions";

  /** Object types ({@code yt/yt/client/object_client/public.h}, {@code EObjectType}). */
  static final int LOCK_TYPE = 200;

  private static final int MAP_NODE_TYPE = 303;
  private static final int FILE_TYPE = 400;
  private static final int TABLE_TYPE = 401;
  private static final int TABLET_CELL_TYPE = 700;

  EmulatorState(InMemoryCluster cluster, TimeSource clock, int rowsPerStore) {
    this.rowsPerStore = rowsPerStore;
    this.pool = new StickyPool(clock);
    this.cluster = cluster;
    cluster.createMapNode(YPath.of(SYS_TABLET_CELLS));
    cluster.createMapNode(YPath.of(SYS_TRANSACTIONS));
  }

  /** The in-memory cluster's master transactions, which its static-table port shares. */
  MasterTransactions masterTransactions() {
    return cluster.masterTransactions();
  }

  /**
   * A node's id, handed out when the node is first named and kept while it lives: a GUID of four
   * hex parts of up to 32 bits, the third holding the cell tag and the object type as the server's
   * do ({@code yt/yt/client/object_client/helpers.h}), so the official client's checks of an id's
   * type hold.
   */
  String nodeId(YPath path, String type) {
    String id =
        nodeIds.computeIfAbsent(
            path.value(),
            p ->
                newObjectId(
                    switch (type) {
                      case "map_node" -> MAP_NODE_TYPE;
                      case "file" -> FILE_TYPE;
                      default -> TABLE_TYPE;
                    }));
    nodesById.putIfAbsent(id, path);
    return id;
  }

  /** The node an id names ({@code #<id>} paths), while it lives. */
  Optional<YPath> pathOfNodeId(String id) {
    YPath path = nodesById.get(id);
    if (path == null && tabletCellIds().contains(id)) {
      return Optional.of(YPath.of(SYS_TABLET_CELLS + "/" + id));
    }
    return Optional.ofNullable(path).filter(cluster::exists);
  }

  /** Forgets the ids of a removed or moved node and everything under it. */
  void forgetNodes(YPath root) {
    String prefix = root.value() + "/";
    nodeIds
        .entrySet()
        .removeIf(
            e -> {
              boolean gone = e.getKey().equals(root.value()) || e.getKey().startsWith(prefix);
              if (gone) {
                nodesById.remove(e.getValue());
              }
              return gone;
            });
  }

  /** A fresh object id of {@code type}, cell tag 1. */
  String newObjectId(int type) {
    long n = objectCounter.incrementAndGet();
    return String.format(
        "%x-%x-%x-%x",
        n,
        cluster.time().nowMillis() & 0xffffffffL,
        (1 << 16) | type,
        (n * 0x9e3779b1L) & 0xffffffffL);
  }

  long nextRevision() {
    return revision.incrementAndGet();
  }

  /**
   * {@code create tablet_cell}: a node under {@code //sys/tablet_cells} named by its id, healthy at
   * once (the emulator's tablets need no cells; the official client's set-up creates one).
   */
  String createTabletCell() {
    String id = newObjectId(TABLET_CELL_TYPE);
    cluster.createMapNode(YPath.of(SYS_TABLET_CELLS + "/" + id));
    return id;
  }

  /** The tablet cell id {@code path} names, if it is a cell's node. */
  Optional<String> tabletCellOf(YPath path) {
    String value = path.value();
    String prefix = SYS_TABLET_CELLS + "/";
    if (value.startsWith(prefix) && value.indexOf('/', prefix.length()) < 0) {
      return Optional.of(value.substring(prefix.length()));
    }
    return Optional.empty();
  }

  private List<String> tabletCellIds() {
    return cluster.checkpoints().list(YPath.of(SYS_TABLET_CELLS));
  }

  /** Registrations' {@code partitions}, by queue and consumer; absent means every partition. */
  private final Map<String, List<Long>> registeredPartitions = new ConcurrentHashMap<>();

  /** Tables written in each running tablet transaction, checked for being mounted at commit. */
  private final Map<String, Set<YPath>> transactionWrites = new ConcurrentHashMap<>();

  void setRegisteredPartitions(YPath queue, YPath consumer, Optional<List<Long>> partitions) {
    String key = queue.value() + "\n" + consumer.value();
    if (partitions.isPresent()) {
      registeredPartitions.put(key, partitions.get());
    } else {
      registeredPartitions.remove(key);
    }
  }

  Optional<List<Long>> registeredPartitions(YPath queue, YPath consumer) {
    return Optional.ofNullable(registeredPartitions.get(queue.value() + "\n" + consumer.value()));
  }

  void writtenInTransaction(String transactionId, YPath table) {
    transactionWrites.computeIfAbsent(transactionId, t -> ConcurrentHashMap.newKeySet()).add(table);
  }

  Set<YPath> tablesWrittenIn(String transactionId) {
    return transactionWrites.getOrDefault(transactionId, Set.of());
  }

  void forgetTransactionWrites(String transactionId) {
    transactionWrites.remove(transactionId);
  }

  InMemoryCluster cluster() {
    return cluster;
  }

  String clusterName() {
    return cluster.name();
  }

  /** Rows per store of a queue tablet (see {@link EmulatorOptions#rowsPerStore}). */
  int rowsPerStore() {
    return rowsPerStore;
  }

  StickyPool pool() {
    return pool;
  }

  boolean isMounted(YPath table) {
    return !unmounted.contains(table);
  }

  void markUnmounted(YPath table) {
    unmounted.add(table);
  }

  void markMounted(YPath table) {
    unmounted.remove(table);
  }

  /**
   * Reads and writes of an unmounted table fail with 1702 TabletNotMounted ({@code
   * yt/yt/client/tablet_client/public.h}).
   */
  void requireMounted(YPath table) {
    if (unmounted.contains(table)) {
      throw CommandError.of(
          1702, "Tablet of table " + table + " is not mounted (run mount_table first)");
    }
  }

  /**
   * A timestamp for {@code barrier_timestamp}: every commit so far is at or below it, in the
   * server's hybrid form ({@link YtTimestamps}), as the commit timestamps in {@code $timestamp}.
   */
  long timestamp() {
    return Math.max(
        YtTimestamps.lowestAtEpochMillis(cluster.time().nowMillis()), cluster.lastTimestamp());
  }

  /**
   * An in-memory cluster error as the wire error: its code and message, inner codes nested. A
   * denied permission check carries the {@code user} and {@code permission} attributes, as the
   * server's AuthorizationError does ({@code yt/yt/client/api/security_client.cpp}).
   */
  static CommandError toCommandError(YtException e) {
    if (e instanceof AccessDeniedException denied) {
      // TCheckPermissionResult::ToError (yt/yt/client/api/security_client.cpp): user and
      // permission always, denied_by and denied_for when a deny entry decided.
      Map<String, String> attributes = new java.util.LinkedHashMap<>();
      attributes.put("user", denied.user());
      attributes.put("permission", denied.permission());
      denied.deniedBy().ifPresent(id -> attributes.put("denied_by", id));
      denied.deniedFor().ifPresent(id -> attributes.put("denied_for", id));
      return new CommandError(
          400, denied.code(), denied.serverMessage(), List.of(), Map.copyOf(attributes));
    }
    String message = e.getMessage();
    String suffix = " (code " + e.code() + ")";
    if (message != null && message.endsWith(suffix)) {
      message = message.substring(0, message.length() - suffix.length());
    }
    List<CommandError> inner = new ArrayList<>();
    for (int code : e.codes()) {
      if (code != e.code()) {
        inner.add(CommandError.of(code, "inner error " + code));
      }
    }
    return new CommandError(400, e.code(), message, inner);
  }
}
