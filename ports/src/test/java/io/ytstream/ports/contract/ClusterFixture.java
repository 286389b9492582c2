package io.ytstream.ports.contract;

import io.ytstream.core.model.YPath;
import io.ytstream.ports.TableDescription.Column;
import io.ytstream.ports.spi.YtCluster;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What the port contract suite needs from an adapter under test: a cluster, a private directory to
 * work in, and the admin operations that are not ports (creating tables, registering consumers,
 * trimming, resharding, letting time pass). Kept adapter-neutral so that the in-memory cluster, the
 * HTTP adapter with its emulator and a real cluster all run the same suite; what only some can do
 * is declared as a {@link Capability}, and the tests that need it are skipped elsewhere.
 */
public interface ClusterFixture extends AutoCloseable {

  /** Optional abilities; tests needing one skip (JUnit assumptions) when it is missing. */
  enum Capability {
    /** {@link #elapse} moves a controlled clock at once, so lease expiry can be tested exactly. */
    CONTROLLED_CLOCK,
    /**
     * {@link #useRowLimitPerTablet} really lowers the limit (else the test writes 100,001 rows).
     */
    SMALL_ROW_LIMIT,
    /** {@link #limitRowsPerPull} makes pulls return fewer rows than asked for. */
    SHORT_READS,
    /** {@link #failNextCommitWithUnknownOutcome} works. */
    UNKNOWN_COMMIT_OUTCOME,
    /**
     * {@link #clusterAs} connects as one of the non-superusers {@code alice}, {@code bob} and
     * {@code carol}, and {@link #createDirectory} gives the directory the ACL it is asked for.
     */
    ACCESS_CONTROL
  }

  /** The users {@link #clusterAs} knows, none of them a superuser. */
  List<String> USERS = List.of("alice", "bob", "carol");

  /** The cluster under test. */
  YtCluster cluster();

  /** An existing directory that belongs to this fixture alone; tests create nodes below it. */
  YPath root();

  Set<Capability> capabilities();

  default boolean supports(Capability capability) {
    return capabilities().contains(capability);
  }

  /**
   * The cluster under test as seen by {@code user} (one of {@link #USERS}): a connection that
   * authenticates as that user. Needs {@link Capability#ACCESS_CONTROL}.
   */
  default YtCluster clusterAs(String user) {
    throw new UnsupportedOperationException("this fixture cannot act as user " + user);
  }

  /**
   * Creates a map node with the {@code acl} attribute {@code acl}, each entry in the server's shape
   * ({@code action}: {@code "allow"} or {@code "deny"}, {@code subjects} and {@code permissions}:
   * lists of strings). Needs {@link Capability#ACCESS_CONTROL}.
   */
  default void createDirectory(YPath path, List<Map<String, Object>> acl) {
    throw new UnsupportedOperationException("this fixture cannot give " + path + " an ACL");
  }

  /** Creates a mounted ordered dynamic table (a queue) with {@code tabletCount} tablets. */
  void createOrderedTable(YPath path, List<Column> columns, int tabletCount);

  /** Creates a mounted sorted dynamic table; key columns first. */
  void createSortedTable(YPath path, List<Column> columns);

  /**
   * Creates an empty static table ({@code create} of type {@code table}, {@code dynamic=false})
   * with a strict, unsorted schema of {@code columns}.
   */
  void createStaticTable(YPath path, List<Column> columns);

  /** Creates a consumer table (consumer schema, {@code @treat_as_queue_consumer}). */
  void createConsumer(YPath path);

  /**
   * Creates a mounted queue producer table ({@code create} of type {@code queue_producer}: the
   * session schema and {@code @treat_as_queue_producer}).
   */
  void createQueueProducer(YPath path);

  /** {@code register_queue_consumer} with {@code vital=false}, visible to the next pull. */
  void registerConsumer(YPath queue, YPath consumer);

  void unregisterConsumer(YPath queue, YPath consumer);

  /** {@code trim_rows}, visible to the next read. */
  void trim(YPath queue, int tablet, long trimmedRowCount);

  /** Grows an ordered table to {@code tabletCount} tablets (unmount, reshard, mount). */
  void reshard(YPath orderedTable, int tabletCount);

  /** Lets {@code duration} pass on the cluster's clock: instantly with a controlled clock. */
  void elapse(Duration duration);

  /**
   * Asks for a per-tablet row limit of {@code wanted} rows per transaction and returns the limit
   * actually in force (a real cluster keeps its configured 100,000).
   */
  int useRowLimitPerTablet(int wanted);

  /** Makes every pull return at most {@code rows} rows. Needs {@link Capability#SHORT_READS}. */
  void limitRowsPerPull(int rows);

  /**
   * Makes the next {@code TabletTransaction.commit} throw {@code CommitOutcomeUnknownException},
   * after applying the transaction or without. Needs {@link Capability#UNKNOWN_COMMIT_OUTCOME}.
   */
  void failNextCommitWithUnknownOutcome(boolean applied);

  /** Releases the fixture (removes its directory on a shared cluster). */
  @Override
  void close();
}
