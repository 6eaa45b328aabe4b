import { AuthFlow } from "./auth-flow";

/** "/": sign in with email, then password or a code. */
export function SignInScreen() {
  return <AuthFlow mode="sign-in" />;
}
