package io.ytstream.inmemory;

/** A file: its whole content (checkpoint files are small). */
final class FileNode extends CypressNode {

  private byte[] content;

  FileNode(byte[] content, long nowMillis) {
    super(nowMillis);
    this.content = content.clone();
  }

  @Override
  String typeName() {
    return "file";
  }

  byte[] content() {
    return content.clone();
  }

  int length() {
    return content.length;
  }

  void overwrite(byte[] newContent, long nowMillis) {
    content = newContent.clone();
    touch(nowMillis);
  }
}
