package io.ytstream.types.v3;

import java.util.List;

/**
 * {@code variant} over a struct: exactly one of the named alternatives, labelled by name. Member
 * names are unique.
 */
public record YtVariantStruct(List<YtMember> members) implements YtType {

  public YtVariantStruct {
    members = Members.checkedMembers("variant", members);
  }

  @Override
  public String describe() {
    return Members.describeMembers("variant", members);
  }

  @Override
  public boolean isNullable() {
    return false;
  }
}
