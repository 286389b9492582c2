package io.ytstream.ytsaurus;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ytstream.core.error.YtErrorCode;
import io.ytstream.core.model.YPath;
import io.ytstream.ports.ProducerPush;
import io.ytstream.ports.ProducerSessionId;
import io.ytstream.ports.Row;
import io.ytstream.ports.TableDescription.Column;
import io.ytstream.ports.TabletTransaction;
import io.ytstream.ports.spi.YtCluster;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * What a user reads when the server refuses a queue producer command for want of a permission: who,
 * which permission, which paths and how to fix it, and never the token.
 */
class HttpAccessDenialTest {

  private final EmulatorClusterFixture fixture = new EmulatorClusterFixture();

  @AfterEach
  void close() {
    fixture.close();
  }

  private ProducerSessionId setUp() {
    YPath dir = fixture.root().child("shared");
    fixture.createDirectory(
        dir,
        List.of(
            Map.of(
                "action", "allow", "subjects", List.of("alice"), "permissions", List.of("write"))));
    YPath queue = dir.child("q");
    YPath producer = dir.child("p");
    fixture.createOrderedTable(queue, List.of(new Column("value", "string", false, false)), 1);
    fixture.createQueueProducer(producer);
    ProducerSessionId session = new ProducerSessionId(producer, queue, "s");
    fixture.cluster().queueProducers().createSession(session);
    return session;
  }

  private static void assertActionable(YtHttpException error, String... mentions) {
    String message = error.getMessage();
    assertTrue(error.hasCode(YtErrorCode.AUTHORIZATION_ERROR), message);
    assertTrue(message.contains("YTsaurus user \"bob\" lacks the \"write\" permission"), message);
    assertTrue(message.contains("subjects=[bob]; permissions=[write]"), message);
    assertTrue(message.contains("Access denied for user \"bob\""), message);
    for (String mention : mentions) {
      assertTrue(message.contains(mention), mention + " missing from: " + message);
    }
    assertFalse(message.contains("bob-contract-token"), message);
  }

  @Test
  void aDeniedPushNamesTheUserThePermissionAndBothPaths() {
    ProducerSessionId session = setUp();
    YtCluster bob = fixture.clusterAs("bob");

    YtHttpException error =
        assertThrows(
            YtHttpException.class,
            () ->
                bob.queueProducers()
                    .push(ProducerPush.numberedFrom(session, 0, 0, List.of(Row.of("value", "a")))));

    assertActionable(
        error,
        "push_queue_producer",
        "queue " + session.queue().value(),
        "producer " + session.producer().value());
  }

  @Test
  void aDeniedSessionCreationNamesTheProducer() {
    ProducerSessionId session = setUp();

    YtHttpException error =
        assertThrows(
            YtHttpException.class,
            () -> fixture.clusterAs("bob").queueProducers().createSession(session));

    assertActionable(
        error, "create_queue_producer_session", "producer " + session.producer().value());
  }

  /**
   * The server checks a push's permissions before anything else, inside a transaction too: the push
   * itself is refused, not the commit.
   */
  @Test
  void aPushInATransactionIsRefusedAtThePushSayingWhoLacksWhat() {
    ProducerSessionId session = setUp();
    YtCluster bob = fixture.clusterAs("bob");
    TabletTransaction transaction = bob.transactions().start(Duration.ofSeconds(30));

    YtHttpException error =
        assertThrows(
            YtHttpException.class,
            () ->
                bob.queueProducers()
                    .push(
                        ProducerPush.numberedFrom(session, 0, 0, List.of(Row.of("value", "a"))),
                        transaction.id()));
    transaction.abort();

    assertActionable(
        error,
        "push_queue_producer",
        "queue " + session.queue().value(),
        "producer " + session.producer().value());
  }
}
