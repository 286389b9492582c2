package io.ytstream.emulator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.ytstream.emulator.RawHttp.Reply;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Permissions of queue producer commands over raw HTTP. Pinned to: the checks the push and session
 * calls make before anything else ({@code yt/yt/ytlib/api/native/transaction.cpp}, {@code
 * TTransaction::DoPushQueueProducer}: {@code write} on the producer, then on the queue, then {@code
 * read} on the producer for the session row's lookup; {@code
 * yt/yt/ytlib/api/native/client_dynamic_tables_impl.cpp}, {@code DoCreateQueueProducerSession}:
 * {@code write} then {@code read} on the producer, {@code DoRemoveQueueProducerSession}: {@code
 * write}), so a denial is the command's own 901, not a failed commit; the error text ({@code
 * yt/yt/client/api/security_client.cpp}, {@code TCheckPermissionResult::ToError}: code 901,
 * attributes {@code user} and {@code permission}, {@code denied_by} and {@code denied_for} when a
 * deny entry decided); the matching of entries ({@code
 * yt/yt/server/lib/security_server/permission_checker-inl.h}: a matching deny wins, no matching
 * allow denies, {@code inherit_acl=%false} stops at the node). Pulls: {@code read} on the consumer
 * for {@code pull_queue_consumer}, on the queue for {@code pull_queue}, as the project's reference
 * notes on the server's code state it (the native client's pull code is not in the searchable
 * index).
 */
class AclConformanceTest {

  private static final String ROOT_TOKEN = "root-secret";
  private static final String ALICE_TOKEN = "alice-secret";
  private static final String BOB_TOKEN = "bob-secret";
  private static final String CAROL_TOKEN = "carol-secret";

  @RegisterExtension
  final YtEmulatorExtension yt =
      new YtEmulatorExtension(
          EmulatorOptions.defaults()
              .withToken(ROOT_TOKEN)
              .withUser(ALICE_TOKEN, "alice")
              .withUser(BOB_TOKEN, "bob")
              .withUser(CAROL_TOKEN, "carol"));

  private final RawHttp root = new RawHttp(ROOT_TOKEN);
  private final RawHttp alice = new RawHttp(ALICE_TOKEN);
  private final RawHttp bob = new RawHttp(BOB_TOKEN);
  private final RawHttp carol = new RawHttp(CAROL_TOKEN);

  private String base() {
    return yt.emulator().url();
  }

  private static Reply ok(Reply reply) {
    assertEquals(200, reply.status(), reply.text());
    return reply;
  }

  /** An entry for {@code write} and {@code read}, what a producer job needs. */
  private static String ace(String action, String subject) {
    return ace(action, subject, "write", "read");
  }

  private static String ace(String action, String subject, String... permissions) {
    return "{\"action\":\""
        + action
        + "\",\"subjects\":[\""
        + subject
        + "\"],\"permissions\":[\""
        + String.join("\",\"", permissions)
        + "\"]}";
  }

  private void directory(String path, String attributes) {
    ok(
        root.command(
            "POST",
            base(),
            "create",
            "{\"path\":\""
                + path
                + "\",\"type\":\"map_node\",\"recursive\":true,\"attributes\":"
                + attributes
                + "}"));
  }

  /** A mounted queue {@code queue} and a producer {@code producer} with a session {@code s}. */
  private String setUp(String queue, String producer) {
    ok(
        root.command(
            "POST",
            base(),
            "create",
            "{\"path\":\""
                + queue
                + "\",\"type\":\"table\",\"attributes\":{\"dynamic\":true,"
                + "\"schema\":[{\"name\":\"value\",\"type\":\"string\"}]}}"));
    ok(root.command("POST", base(), "mount_table", "{\"path\":\"" + queue + "\"}"));
    ok(
        root.command(
            "POST",
            base(),
            "create",
            "{\"path\":\"" + producer + "\",\"type\":\"queue_producer\"}"));
    String session =
        "\"producer_path\":\""
            + producer
            + "\",\"queue_path\":\""
            + queue
            + "\",\"session_id\":\"s\"";
    ok(root.command("POST", base(), "create_queue_producer_session", "{" + session + "}"));
    return session;
  }

  private Reply push(RawHttp as, String session, String extra, String value) {
    return as.put(
        base(),
        "push_queue_producer",
        "{" + session + ",\"epoch\":0,\"sequence_number\":0" + extra + "}",
        "{\"value\":\"" + value + "\"}\n");
  }

  private List<String> values(String queue) {
    List<String> values = new ArrayList<>();
    ok(root.command("GET", base(), "select_rows", "{\"query\":\"value from [" + queue + "]\"}"))
        .rows()
        .forEach(r -> values.add(r.path("value").asText()));
    return values;
  }

  /** The command's own 901 for {@code permission}, not wrapped in a commit error. */
  private static JsonNode denied(Reply reply, String permission) {
    assertEquals(400, reply.status(), reply.text());
    JsonNode error = reply.json();
    assertEquals(901, error.path("code").asInt(), error.toString());
    assertEquals("901", reply.header("X-YT-Response-Code"));
    assertEquals(
        permission, error.path("attributes").path("permission").asText(), error.toString());
    return error;
  }

  private static JsonNode denied(Reply reply) {
    return denied(reply, "write");
  }

  @Test
  void aPushNoEntryAllowsIsAnAuthorizationErrorAtThePush() {
    directory("//home", "{\"acl\":[" + ace("allow", "alice") + "]}");
    String session = setUp("//home/q", "//home/p");

    JsonNode denied = denied(push(bob, session, "", "a"));

    assertFalse(denied.path("attributes").has("denied_by"), denied.toString());
    assertEquals(
        "Access denied for user \"bob\": \"write\" permission is not allowed by any matching ACE",
        denied.path("message").asText());
    assertEquals("bob", denied.path("attributes").path("user").asText());
    assertEquals(List.of(), values("//home/q"));
  }

  @Test
  void anAllowEntryOnTheParentLetsThePushThrough() {
    directory("//home", "{\"acl\":[" + ace("allow", "alice") + "]}");
    String session = setUp("//home/q", "//home/p");

    JsonNode answer = ok(push(alice, session, "", "a")).json();

    assertEquals(0, answer.path("last_sequence_number").asLong(), answer.toString());
    assertEquals(0, answer.path("skipped_row_count").asLong(), answer.toString());
    assertEquals(List.of("a"), values("//home/q"));
  }

  @Test
  void aDenyEntryWinsOverAnAllowAndTheMessageNamesWhere() {
    directory("//home", "{\"acl\":[" + ace("allow", "users") + "]}");
    directory("//home/inner", "{\"acl\":[" + ace("deny", "alice") + "]}");
    String session = setUp("//home/inner/q", "//home/inner/p");

    JsonNode denied = denied(push(alice, session, "", "a"));
    ok(push(bob, session, "", "b"));

    assertEquals(
        "Access denied for user \"alice\": \"write\" permission is denied for \"alice\" by ACE at"
            + " node //home/inner",
        denied.path("message").asText());
    // ToError sets denied_by (the object whose entry denied) and denied_for (its subject).
    assertTrue(
        denied.path("attributes").path("denied_by").asText().matches("[0-9a-f]+(-[0-9a-f]+){3}"),
        denied.toString());
    assertTrue(
        denied.path("attributes").path("denied_for").asText().matches("[0-9a-f]+(-[0-9a-f]+){3}"),
        denied.toString());
    assertEquals(List.of("b"), values("//home/inner/q"));
  }

  @Test
  void thePushNeedsWriteOnTheProducerAsWellAsTheQueue() {
    directory("//queues", "{\"acl\":[" + ace("allow", "alice") + "]}");
    directory("//producers", "{\"acl\":[" + ace("allow", "bob") + "]}");
    String session = setUp("//queues/q", "//producers/p");

    JsonNode queueDenied = denied(push(alice, session, "", "a"));
    JsonNode producerDenied = denied(push(bob, session, "", "b"));

    // write on the producer is checked first, then on the queue.
    assertTrue(queueDenied.path("message").asText().contains("\"alice\""), queueDenied.toString());
    assertTrue(
        producerDenied.path("message").asText().contains("\"bob\""), producerDenied.toString());
    assertEquals(List.of(), values("//queues/q"));
  }

  @Test
  void writeOnTheProducerWithoutReadFailsThePushForRead() {
    directory("//home", "{\"acl\":[" + ace("allow", "alice", "write") + "]}");
    String session = setUp("//home/q", "//home/p");

    JsonNode denied = denied(push(alice, session, "", "a"), "read");

    assertEquals(
        "Access denied for user \"alice\": \"read\" permission is not allowed by any matching ACE",
        denied.path("message").asText());
    assertEquals(List.of(), values("//home/q"));
  }

  @Test
  void inheritAclFalseStopsTheParentsEntries() {
    directory("//home", "{\"acl\":[" + ace("allow", "alice") + "]}");
    directory("//home/sealed", "{\"inherit_acl\":false}");
    String session = setUp("//home/sealed/q", "//home/sealed/p");

    denied(push(alice, session, "", "a"));

    JsonNode attributes =
        ok(root.command("GET", base(), "get", "{\"path\":\"//home/sealed/@\"}"))
            .json()
            .path("value");
    assertFalse(attributes.path("inherit_acl").asBoolean(true), attributes.toString());
  }

  @Test
  void aPushInsideATransactionIsDeniedAtThePushAndTheTransactionStaysUsable() {
    directory("//home", "{\"acl\":[" + ace("allow", "alice") + "]}");
    String session = setUp("//home/q", "//home/p");
    String tx =
        ok(bob.command("POST", base(), "start_transaction", "{\"type\":\"tablet\"}"))
            .json()
            .path("transaction_id")
            .asText();

    Reply pushed = push(bob, session, ",\"transaction_id\":\"" + tx + "\"", "a");
    Reply committed =
        bob.command("POST", base(), "commit_transaction", "{\"transaction_id\":\"" + tx + "\"}");

    JsonNode denied = denied(pushed);
    ok(committed);
    assertEquals("bob", denied.path("attributes").path("user").asText());
    assertEquals(List.of(), values("//home/q"));
  }

  @Test
  void sessionCommandsNeedWriteOnTheProducerAndCreationRead() {
    directory(
        "//home",
        "{\"acl\":[" + ace("allow", "alice") + "," + ace("allow", "carol", "write") + "]}");
    String session = setUp("//home/q", "//home/p");

    denied(bob.command("POST", base(), "create_queue_producer_session", "{" + session + "}"));
    denied(bob.command("POST", base(), "remove_queue_producer_session", "{" + session + "}"));
    denied(
        carol.command("POST", base(), "create_queue_producer_session", "{" + session + "}"),
        "read");
    JsonNode created =
        ok(alice.command("POST", base(), "create_queue_producer_session", "{" + session + "}"))
            .json();

    assertEquals(1, created.path("epoch").asLong(), created.toString());
  }

  @Test
  void aPullNeedsReadOnTheConsumerAndAPullWithoutOneReadOnTheQueue() {
    directory("//home", "{\"acl\":[" + ace("allow", "alice", "read") + "]}");
    setUp("//home/q", "//home/p");
    ok(
        root.command(
            "POST", base(), "create", "{\"path\":\"//home/c\",\"type\":\"queue_consumer\"}"));
    ok(
        root.command(
            "POST",
            base(),
            "register_queue_consumer",
            "{\"queue_path\":\"//home/q\",\"consumer_path\":\"//home/c\",\"vital\":false}"));
    String byConsumer =
        "{\"consumer_path\":\"//home/c\",\"queue_path\":\"//home/q\",\"partition_index\":0,"
            + "\"offset\":0}";
    String byQueue = "{\"queue_path\":\"//home/q\",\"partition_index\":0,\"offset\":0}";

    ok(alice.command("GET", base(), "pull_queue_consumer", byConsumer));
    ok(alice.command("GET", base(), "pull_queue", byQueue));
    JsonNode consumerDenied =
        denied(bob.command("GET", base(), "pull_queue_consumer", byConsumer), "read");
    JsonNode queueDenied = denied(bob.command("GET", base(), "pull_queue", byQueue), "read");

    assertEquals("bob", consumerDenied.path("attributes").path("user").asText());
    assertEquals("bob", queueDenied.path("attributes").path("user").asText());
  }

  /**
   * Point 26 of the reference notes on the server's code: the server-side {@code
   * advance_queue_consumer} checks {@code read} on the consumer and the registration before it
   * advances, inside a transaction too.
   */
  @Test
  void anAdvanceNeedsReadOnTheConsumerAndItsRegistrationInsideATransactionToo() {
    directory("//home", "{\"acl\":[" + ace("allow", "alice", "read") + "]}");
    setUp("//home/q", "//home/p");
    ok(
        root.command(
            "POST", base(), "create", "{\"path\":\"//home/c\",\"type\":\"queue_consumer\"}"));
    String advance =
        "\"consumer_path\":\"//home/c\",\"queue_path\":\"//home/q\",\"partition_index\":0,"
            + "\"new_offset\":1";

    Reply unregistered =
        alice.command("POST", base(), "advance_queue_consumer", "{" + advance + "}");
    assertEquals(400, unregistered.status(), unregistered.text());
    assertTrue(unregistered.text().contains("is not registered for queue"), unregistered.text());

    ok(
        root.command(
            "POST",
            base(),
            "register_queue_consumer",
            "{\"queue_path\":\"//home/q\",\"consumer_path\":\"//home/c\",\"vital\":false}"));
    ok(alice.command("POST", base(), "advance_queue_consumer", "{" + advance + "}"));
    JsonNode outside =
        denied(bob.command("POST", base(), "advance_queue_consumer", "{" + advance + "}"), "read");
    String tx =
        ok(bob.command("POST", base(), "start_transaction", "{\"type\":\"tablet\"}"))
            .json()
            .path("transaction_id")
            .asText();
    JsonNode inside =
        denied(
            bob.command(
                "POST",
                base(),
                "advance_queue_consumer",
                "{" + advance + ",\"transaction_id\":\"" + tx + "\"}"),
            "read");

    assertEquals("bob", outside.path("attributes").path("user").asText());
    assertEquals("bob", inside.path("attributes").path("user").asText());
    assertEquals(
        List.of(1L),
        ok(root.command("GET", base(), "select_rows", "{\"query\":\"[offset] from [//home/c]\"}"))
            .rows()
            .stream()
            .map(r -> r.path("offset").asLong())
            .toList());
  }

  @Test
  void theTokenGivenAsTokenActsAsTheSuperuserRoot() {
    directory("//home", "{\"acl\":[" + ace("deny", "everyone") + "]}");
    String session = setUp("//home/q", "//home/p");

    ok(push(root, session, "", "a"));

    assertEquals(List.of("a"), values("//home/q"));
  }

  @Test
  void getAnswersTheAclGivenAtCreate() {
    directory("//home", "{\"acl\":[" + ace("allow", "alice", "write") + "]}");

    JsonNode acl =
        ok(root.command("GET", base(), "get", "{\"path\":\"//home/@acl\"}")).json().path("value");

    assertEquals(1, acl.size(), acl.toString());
    assertEquals("allow", acl.path(0).path("action").asText());
    assertEquals("alice", acl.path(0).path("subjects").path(0).asText());
    assertEquals("write", acl.path(0).path("permissions").path(0).asText());
    assertEquals("object_and_descendants", acl.path(0).path("inheritance_mode").asText());
  }

  @Test
  void anAclGivenAtCreateSurvivesARestartWithAStateDir(@TempDir Path state) {
    EmulatorOptions options =
        EmulatorOptions.defaults()
            .withToken(ROOT_TOKEN)
            .withUser(BOB_TOKEN, "bob")
            .withStateDir(state);
    String create =
        "{\"path\":\"//home\",\"type\":\"map_node\",\"attributes\":{\"acl\":["
            + ace("deny", "bob")
            + "],\"inherit_acl\":false}}";
    try (YtEmulator first = YtEmulator.start(options)) {
      ok(root.command("POST", first.url(), "create", create));
    }

    try (YtEmulator second = YtEmulator.start(options)) {
      JsonNode attributes =
          ok(root.command("GET", second.url(), "get", "{\"path\":\"//home/@\"}"))
              .json()
              .path("value");

      assertEquals(
          "deny", attributes.path("acl").path(0).path("action").asText(), attributes.toString());
      assertFalse(attributes.path("inherit_acl").asBoolean(true), attributes.toString());
    }
  }

  @Test
  void aMalformedAclIsRefusedAndCreatesNothing() {
    Reply reply =
        root.command(
            "POST",
            base(),
            "create",
            "{\"path\":\"//home\",\"type\":\"map_node\",\"attributes\":{\"acl\":[{\"action\":"
                + "\"permit\",\"subjects\":[\"alice\"],\"permissions\":[\"write\"]}]}}");

    assertEquals(400, reply.status(), reply.text());
    String message = reply.json().path("message").asText();
    assertTrue(message.contains("acl") && message.contains("\"allow\""), message);
    JsonNode exists =
        ok(root.command("GET", base(), "exists", "{\"path\":\"//home\"}")).json().path("value");
    assertFalse(exists.asBoolean(), exists.toString());
  }

  @Test
  void aUserTokenIsAcceptedAndAnUnknownOneIsStill401() {
    Reply known = alice.command("GET", base(), "exists", "{\"path\":\"//home\"}");
    Reply unknown =
        new RawHttp("nobody-secret").command("GET", base(), "exists", "{\"path\":\"//home\"}");

    ok(known);
    assertEquals(401, unknown.status(), unknown.text());
    assertEquals(111, unknown.errorCode());
    assertFalse(unknown.text().contains("nobody-secret"), unknown.text());
  }
}
