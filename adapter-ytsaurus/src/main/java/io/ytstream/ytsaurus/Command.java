package io.ytstream.ytsaurus;

/**
 * The v4 commands this adapter sends, with the HTTP method the reference prescribes (PUT when the
 * command reads an input stream, POST when it is volatile, GET otherwise) and whether it is heavy
 * (served by the heavy proxies from {@code /hosts}). Reference sections 2.1, 3.
 */
enum Command {
  GET("get", "GET", false, Output.STRUCTURED),
  LIST("list", "GET", false, Output.STRUCTURED),
  EXISTS("exists", "GET", false, Output.STRUCTURED),
  CREATE("create", "POST", false, Output.STRUCTURED),
  REMOVE("remove", "POST", false, Output.STRUCTURED),
  MOVE("move", "POST", false, Output.STRUCTURED),
  SET("set", "PUT", false, Output.STRUCTURED),
  WRITE_FILE("write_file", "PUT", true, Output.STRUCTURED),
  // Static tables (yt/yt/client/driver/table_commands.cpp); heavy as driver.cpp registers them.
  WRITE_TABLE("write_table", "PUT", true, Output.STRUCTURED),
  READ_TABLE("read_table", "GET", true, Output.TABULAR),
  READ_FILE("read_file", "GET", true, Output.BINARY),
  GET_TABLET_INFOS("get_tablet_infos", "POST", false, Output.STRUCTURED),
  PULL_QUEUE("pull_queue", "GET", true, Output.TABULAR),
  PULL_QUEUE_CONSUMER("pull_queue_consumer", "GET", true, Output.TABULAR),
  ADVANCE_QUEUE_CONSUMER("advance_queue_consumer", "POST", false, Output.STRUCTURED),
  // The names before the rename, which the driver still registers for the same commands
  // (yt/yt/client/driver/driver.cpp); a server older than the rename knows only these.
  PULL_CONSUMER("pull_consumer", "GET", true, Output.TABULAR),
  ADVANCE_CONSUMER("advance_consumer", "POST", false, Output.STRUCTURED),
  // Queue producers (yt/yt/client/driver/driver.cpp registers them as light). The push's rows
  // travel in a PUT body: a POST body would be read as parameters.
  CREATE_QUEUE_PRODUCER_SESSION("create_queue_producer_session", "POST", false, Output.STRUCTURED),
  REMOVE_QUEUE_PRODUCER_SESSION("remove_queue_producer_session", "POST", false, Output.STRUCTURED),
  PUSH_QUEUE_PRODUCER("push_queue_producer", "PUT", false, Output.STRUCTURED),
  SELECT_ROWS("select_rows", "GET", true, Output.TABULAR),
  LOOKUP_ROWS("lookup_rows", "PUT", true, Output.TABULAR),
  INSERT_ROWS("insert_rows", "PUT", true, Output.STRUCTURED),
  DELETE_ROWS("delete_rows", "PUT", true, Output.STRUCTURED),
  START_TRANSACTION("start_transaction", "POST", false, Output.STRUCTURED),
  PING_TRANSACTION("ping_transaction", "POST", false, Output.STRUCTURED),
  COMMIT_TRANSACTION("commit_transaction", "POST", false, Output.STRUCTURED),
  ABORT_TRANSACTION("abort_transaction", "POST", false, Output.STRUCTURED),
  // Administration: setting a cluster up (tests, the real-cluster contract fixture, tools).
  MOUNT_TABLE("mount_table", "POST", false, Output.STRUCTURED),
  UNMOUNT_TABLE("unmount_table", "POST", false, Output.STRUCTURED),
  RESHARD_TABLE("reshard_table", "POST", false, Output.STRUCTURED),
  REGISTER_QUEUE_CONSUMER("register_queue_consumer", "POST", false, Output.STRUCTURED),
  UNREGISTER_QUEUE_CONSUMER("unregister_queue_consumer", "POST", false, Output.STRUCTURED),
  TRIM_ROWS("trim_rows", "POST", true, Output.STRUCTURED);

  /** How the response body is read. */
  enum Output {
    STRUCTURED,
    TABULAR,
    BINARY
  }

  private final String wireName;
  private final String method;
  private final boolean heavy;
  private final Output output;

  Command(String wireName, String method, boolean heavy, Output output) {
    this.wireName = wireName;
    this.method = method;
    this.heavy = heavy;
    this.output = output;
  }

  String wireName() {
    return wireName;
  }

  String method() {
    return method;
  }

  boolean heavy() {
    return heavy;
  }

  Output output() {
    return output;
  }
}
