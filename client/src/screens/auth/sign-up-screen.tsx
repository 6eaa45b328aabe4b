import { AuthFlow } from "./auth-flow";

/** "/sign-up/": create an account with email, then a password or a code. */
export function SignUpScreen() {
  return <AuthFlow mode="sign-up" />;
}
