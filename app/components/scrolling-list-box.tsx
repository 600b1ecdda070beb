import { Flex, Spinner } from "@radix-ui/themes";
import type { HTMLAttributes, ReactNode, RefObject } from "react";

/**
 * The box a paged list scrolls in (useInfiniteList's `scrollRoot`): what it
 * says when there is nothing to list, the rows, and a spinner at the bottom
 * while the next page loads.
 */
export function ScrollingListBox({
  boxRef,
  loading,
  isEmpty,
  empty,
  children,
  ...attributes
}: {
  boxRef: RefObject<HTMLDivElement>;
  loading: boolean;
  isEmpty: boolean;
  /** Shown instead of the rows when there are none and none are loading. */
  empty: ReactNode;
  children: ReactNode;
} & Omit<HTMLAttributes<HTMLDivElement>, "children">) {
  return (
    <div {...attributes} ref={boxRef} aria-busy={loading}>
      {isEmpty && !loading ? empty : children}
      {loading ? (
        <Flex justify="center" p="2">
          <Spinner size="1" />
        </Flex>
      ) : null}
    </div>
  );
}
