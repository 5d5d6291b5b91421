// The command line's errors: a decode failure carries its frame, so the one-line message can give
// the numbers involved and hints (src/explain/frame-errors.ts), the CLI's own among them: how to
// read the bytes as a response.
import {
  describeError, errorJson as frameErrorJson, InputError, type ErrorJson, type FrameContext,
} from '../explain/frame-errors.js';

export { describeError, InputError, type ErrorJson, type FrameContext };

/** The CLI's way to read bytes as a response, named in the hint for a request that fails as a response would. */
const READ_AS_RESPONSE = 'give --response --api-key KEY --api-version N';
/** And the way back, for a request that fails as a response would. */
const READ_AS_REQUEST = 'leave out --response (a request names its API and version itself)';

function withCliHints(context: FrameContext): FrameContext {
  return { ...context, readAsResponse: READ_AS_RESPONSE, readAsRequest: READ_AS_REQUEST };
}

/** The error as the JSON-lines modes answer it. */
export function errorJson(error: unknown, context?: FrameContext): ErrorJson {
  return frameErrorJson(error, context === undefined ? undefined : withCliHints(context));
}

/** A decode failure with the frame it happened in, so the message can give numbers and a hint. */
export class FrameFailure extends Error {
  override readonly name = 'FrameFailure';
  constructor(readonly error: unknown, readonly context: FrameContext) {
    super(describeError(error, withCliHints(context)));
  }
}

/** Runs `read` on a frame; a failure comes out as a FrameFailure that knows the frame. */
export function withFrame<T>(context: FrameContext, read: () => T): T {
  try {
    return read();
  } catch (error) {
    throw new FrameFailure(error, context);
  }
}

