package io.ytstream.inmemory;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ytstream.core.error.CommitOutcomeUnknownException;
import io.ytstream.core.error.YtErrorCode;
import io.ytstream.core.error.YtException;
import io.ytstream.core.model.YPath;
import io.ytstream.ports.MasterTransaction;
import io.ytstream.ports.Row;
import io.ytstream.ports.TableDescription.Column;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * What the in-memory static-table appends add to the port contract: faults on the master commit
 * whose outcome a restart learns from the attribute written with the rows, and one set of master
 * transactions shared with the emulator's commands.
 */
class InMemoryStaticTableAppendsTest {

  private final ManualClock clock = new ManualClock();
  private final InMemoryCluster cluster = new InMemoryCluster("c", clock);
  private final YPath table = YPath.of("//out/t");

  InMemoryStaticTableAppendsTest() {
    cluster.createStaticTable(table, List.of(new Column("v", "string", false, false)));
  }

  private MasterTransaction batch(String value, long batchId) {
    MasterTransaction tx = cluster.staticTableAppends().start(Duration.ofMinutes(1));
    tx.append(table, List.of(Row.of("v", value)).iterator());
    tx.setAttribute(table, "last_batch", batchId);
    return tx;
  }

  @Test
  void aCommitWhoseAnswerWasLostAfterApplyingHasLandedAndTheAttributeSaysSo() {
    cluster.faults().unknownOutcomeAfterApplying(ClusterOperation.MASTER_COMMIT, 1);
    MasterTransaction tx = batch("a", 1L);

    assertThrows(CommitOutcomeUnknownException.class, tx::commit);

    assertEquals(Optional.of(1L), cluster.staticTableAppends().attribute(table, "last_batch"));
    assertEquals(List.of(Row.of("v", "a")), cluster.staticTableAppends().readAll(table));
  }

  @Test
  void aCommitLostBeforeApplyingLandsNothingAndTheTransactionIsGone() {
    cluster.faults().unknownOutcomeWithoutApplying(ClusterOperation.MASTER_COMMIT, 1);
    MasterTransaction tx = batch("a", 1L);

    assertThrows(CommitOutcomeUnknownException.class, tx::commit);

    assertEquals(Optional.empty(), cluster.staticTableAppends().attribute(table, "last_batch"));
    assertEquals(List.of(), cluster.staticTableAppends().readAll(table));
    YtException again = assertThrows(YtException.class, tx::commit);
    assertTrue(again.hasCode(YtErrorCode.NO_SUCH_TRANSACTION), again.toString());
  }

  @Test
  void aTransactionStartedThroughThePortIsTheClustersMasterTransaction() {
    MasterTransaction tx = batch("a", 1L);

    assertTrue(cluster.masterTransactions().holds(tx.id().value()));
    assertEquals(
        List.of(Row.of("v", "a")), cluster.readStaticTable(table, Optional.of(tx.id().value())));
    cluster.masterTransactions().commit(tx.id().value());

    assertEquals(List.of(Row.of("v", "a")), cluster.readStaticTable(table, Optional.empty()));
    assertEquals(1L, cluster.userAttributes(table, Optional.empty()).get("last_batch"));
  }

  @Test
  void anAttributeValueIsCopiedWhenSetSoLaterChangesToTheCallersMapDoNotLeakIn() {
    java.util.Map<String, Object> batches = new java.util.TreeMap<>();
    batches.put("q", 1L);
    MasterTransaction tx = cluster.staticTableAppends().start(Duration.ofMinutes(1));
    tx.setAttribute(table, "batches", batches);
    batches.put("q", 2L);
    tx.commit();

    assertEquals(
        Optional.of(java.util.Map.of("q", 1L)),
        cluster.staticTableAppends().attribute(table, "batches"));
  }

  @Test
  void anAttributeValueOfAnotherKindIsRefusedNamingTheAttribute() {
    MasterTransaction tx = cluster.staticTableAppends().start(Duration.ofMinutes(1));

    IllegalArgumentException refused =
        assertThrows(
            IllegalArgumentException.class,
            () -> tx.setAttribute(table, "when", java.time.Instant.EPOCH));
    assertTrue(refused.getMessage().contains("@when"), refused.getMessage());
  }
}
