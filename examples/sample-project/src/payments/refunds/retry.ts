// Exponential backoff for gateway calls.
export interface RetryOptions {
  attempts: number;
  base: number;
}

export async function retryWithBackoff<T>(fn: () => Promise<T>, { attempts, base }: RetryOptions): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    const delay = base * 2 ** attempt;
    try {
      return await fn();
    } catch (err) {
      if (attempt + 1 >= attempts) throw err;
      await new Promise((resolve) => setTimeout(resolve, delay));
    }
  }
}
