/** A toast a machine asks for; the composition root binds it to the toaster. */
export type Notice = { title: string; description?: string; type?: 'success' | 'error' | 'info' };
