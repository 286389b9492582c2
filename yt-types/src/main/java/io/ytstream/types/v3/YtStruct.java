package io.ytstream.types.v3;

import java.util.List;

/** {@code struct<name:type;...>}: named fields in order. Member names are unique. */
public record YtStruct(List<YtMember> members) implements YtType {

  public YtStruct {
    members = Members.checkedMembers("struct", members);
  }

  @Override
  public String describe() {
    return Members.describeMembers("struct", members);
  }

  @Override
  public boolean isNullable() {
    return false;
  }
}
